import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { OutboxRepository } from '../modules/mail/outbox.repository';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Where answers go (the help area's messages to support: the member who wrote). */
  replyTo?: string;
  /** Files sent with the message (an appointment's .ics). */
  attachments?: MailAttachment[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  readonly mode: 'smtp' | 'outbox';
}

/** Mail through a real SMTP server (SMTP_URL). */
export class SmtpMailer implements Mailer {
  readonly mode = 'smtp';
  private readonly transport: Transporter;
  constructor(url: string, private readonly from: string) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }
  close(): void {
    this.transport.close();
  }
}

/**
 * Without SMTP: the message is rendered by nodemailer (so it is a real message), kept in the
 * mail_outbox table, listed at /dev/mailbox, and its arrival is logged (not its content,
 * which may hold codes or links).
 */
export class OutboxMailer implements Mailer {
  readonly mode = 'outbox';
  private readonly transport = nodemailer.createTransport({ jsonTransport: true });
  constructor(
    private readonly db: Db,
    private readonly from: string,
    private readonly log: { info: (obj: object, msg: string) => void },
  ) {}
  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
    const id = await new OutboxRepository(this.db).insert({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      attachments: message.attachments?.map((a) => ({ filename: a.filename, content_type: a.contentType, base64: Buffer.from(a.content).toString('base64') })) ?? null,
    });
    this.log.info({ outboxId: id }, 'mail kept in the outbox (no SMTP_URL); read it at /dev/mailbox');
  }
}

/**
 * Sends mail without making the client wait for it. For answers that must not reveal whether
 * an account or invitation exists (password reset, code retrieval, sign-up), and for notices
 * that must not fail the change they tell of: the answer leaves at the same moment either way.
 * A failure is logged (never the message, which holds a code or link). drain() lets shutdown
 * wait for what is in flight.
 */
export class BackgroundMail {
  private readonly inFlight = new Set<Promise<void>>();
  /** Messages that could not be sent since the process started (for /metrics). */
  failures = 0;

  constructor(
    private readonly mailer: Mailer,
    private readonly log: { error(obj: object, msg: string): void },
  ) {}

  send(message: MailMessage, context: Record<string, string | number> = {}): void {
    const sending = this.mailer
      .send(message)
      .catch((err: unknown) => {
        this.failures++;
        this.log.error({ err, ...context }, 'mail could not be sent');
      })
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}

/** The configured mailer: SMTP_URL, else the outbox. */
export function createMailer(db: Db, opts: { smtpUrl: string | undefined; from: string }, log: { info: (obj: object, msg: string) => void }): Mailer {
  return opts.smtpUrl ? new SmtpMailer(opts.smtpUrl, opts.from) : new OutboxMailer(db, opts.from, log);
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
    backgroundMail: BackgroundMail;
  }
}

export default fp<{ smtpUrl: string | undefined; from: string }>(
  async (app, opts) => {
    const mailer = createMailer(app.db, opts, app.log);
    const background = new BackgroundMail(mailer, app.log);
    app.decorate('mailer', mailer);
    app.decorate('backgroundMail', background);
    app.addHook('onClose', async () => {
      await background.drain();
      if (mailer instanceof SmtpMailer) mailer.close();
    });
  },
  { name: 'mail', dependencies: ['db'] },
);
