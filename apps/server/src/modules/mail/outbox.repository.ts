import type { MailboxMessage } from '@healthbook/shared';
import type { Db } from '../../db/client';

/** Mail kept when no SMTP server is configured (development and demos): not tenant data. */
export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async insert(message: { to: string; subject: string; text: string; html: string | null }): Promise<number> {
    const row = await this.db
      .insertInto('mail_outbox')
      .values({ to_address: message.to, subject: message.subject, text_body: message.text, html_body: message.html })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async latest(limit: number): Promise<MailboxMessage[]> {
    const rows = await this.db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({
      id: r.id,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      created_at: new Date(r.created_at).toISOString(),
    }));
  }
}
