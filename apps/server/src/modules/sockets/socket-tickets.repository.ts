import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** Who a ticket was given to: the user, their session, and the language the app asked in. */
export interface TicketHolder {
  user_id: number;
  session_id: string;
  language: string;
}

/**
 * The sockets' tickets (table chat_tickets, migration 0015, whose name it keeps): only a ticket's
 * SHA-256 is stored; a ticket is used once, before it expires.
 */
export class SocketTicketsRepository {
  constructor(private readonly db: Db) {}

  async insert(hash: string, userId: number, sessionId: string, language: string, expiresAt: Date): Promise<void> {
    await this.db.insertInto('chat_tickets').values({ ticket_hash: hash, user_id: userId, session_id: sessionId, language, expires_at: expiresAt }).execute();
  }

  /** Uses a ticket: once, before it expires (one conditional UPDATE, so a race has one winner). */
  async use(hash: string): Promise<TicketHolder | undefined> {
    return this.db
      .updateTable('chat_tickets')
      .set({ used_at: sql`now()` })
      .where('ticket_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['user_id', 'session_id', 'language'])
      .executeTakeFirst();
  }

  /** Forgets tickets expired for an hour. */
  async deleteOld(): Promise<number> {
    const result = await this.db.deleteFrom('chat_tickets').where('expires_at', '<', sql<Date>`now() - interval '1 hour'`).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
