import fp from 'fastify-plugin';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
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
    const row = await this.db
      .insertInto('mail_outbox')
      .values({ to_address: message.to, subject: message.subject, text_body: message.text, html_body: message.html ?? null })
      .returning('id')
      .executeTakeFirstOrThrow();
    this.log.info({ outboxId: row.id }, 'mail kept in the outbox (no SMTP_URL); read it at /dev/mailbox');
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export default fp<{ smtpUrl: string | undefined; from: string }>(
  async (app, opts) => {
    if (opts.smtpUrl) {
      const mailer = new SmtpMailer(opts.smtpUrl, opts.from);
      app.decorate('mailer', mailer);
      app.addHook('onClose', async () => mailer.close());
    } else {
      app.decorate('mailer', new OutboxMailer(app.db, opts.from, app.log));
    }
  },
  { name: 'mail', dependencies: ['db'] },
);
