import type { MailboxMessage } from '@healthbook/shared';
import type { Db } from '../../db/client';
import type { MailAttachmentRow } from '../../db/schema';

/** Mail kept when no SMTP server is configured (development and demos): not tenant data. */
export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async insert(message: { to: string; subject: string; text: string; html: string | null; attachments?: MailAttachmentRow[] | null }): Promise<number> {
    const row = await this.db
      .insertInto('mail_outbox')
      .values({
        to_address: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        attachments: message.attachments?.length ? JSON.stringify(message.attachments) : null,
      })
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
      attachments: (r.attachments ?? []).map((a) => ({ filename: a.filename, content_type: a.content_type, size: Buffer.from(a.base64, 'base64').length })),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }
}
