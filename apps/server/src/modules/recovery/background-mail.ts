import type { MailMessage, Mailer } from '../../plugins/mail';

/**
 * Sends mail without making the client wait for it. For the answers that must not reveal
 * whether an account or invitation exists (password reset, code retrieval): the answer leaves
 * at the same moment either way, whatever the SMTP server's latency. A failure is logged
 * (never the message, which holds a code or link). drain() lets shutdown wait for what is in flight.
 */
export class BackgroundMail {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly mailer: Mailer,
    private readonly log: { error(obj: object, msg: string): void },
  ) {}

  send(message: MailMessage, context: Record<string, string | number> = {}): void {
    const sending = this.mailer
      .send(message)
      .catch((err: unknown) => this.log.error({ err, ...context }, 'mail could not be sent'))
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }
}
