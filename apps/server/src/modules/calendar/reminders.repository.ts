import { sql } from 'kysely';
import type { Db } from '../../db/client';

export interface DueReminder {
  id: string;
  org_id: number;
  user_id: number;
  event_id: number | null;
  appointment_id: number | null;
  occurrence_start: Date;
  remind_at: Date;
  attempts: number;
}

export interface NewReminder {
  org_id: number;
  user_id: number;
  event_id?: number | null;
  appointment_id?: number | null;
  occurrence_start: Date;
  remind_at: Date;
}

/** How long a process may hold a claimed reminder before another may take it over. */
export const CLAIM_SECONDS = 300;
export const MAX_ATTEMPTS = 5;

/** Reminder e-mails due at a time (not tenant-scoped: the scheduler serves every organisation). */
export class RemindersRepository {
  constructor(private readonly db: Db) {}

  /** Adds reminders; one already there (same event occurrence or appointment, same time) is left as it is. */
  async add(reminders: NewReminder[]): Promise<void> {
    for (let i = 0; i < reminders.length; i += 500) {
      await this.db
        .insertInto('reminders')
        .values(reminders.slice(i, i + 500).map((r) => ({ ...r, event_id: r.event_id ?? null, appointment_id: r.appointment_id ?? null })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }

  /** Cancels what is not sent yet of an event (before its reminders are made again) or of an appointment. */
  async cancelPending(of: { eventId?: number; appointmentId?: number }): Promise<void> {
    let query = this.db.updateTable('reminders').set({ status: 'cancelled' }).where('status', 'in', ['pending', 'sending']);
    if (of.eventId !== undefined) query = query.where('event_id', '=', of.eventId);
    if (of.appointmentId !== undefined) query = query.where('appointment_id', '=', of.appointmentId);
    await query.execute();
  }

  /** Forgets the event's reminders that were never sent, so that they can be made afresh. */
  async removeUnsent(eventId: number): Promise<void> {
    await this.db.deleteFrom('reminders').where('event_id', '=', eventId).where('status', 'in', ['pending', 'cancelled']).execute();
  }

  /**
   * Claims up to `limit` due reminders for this process: pending ones whose time has come, and
   * ones another process claimed and did not finish in CLAIM_SECONDS (it stopped). Rows another
   * process is claiming right now are skipped (SKIP LOCKED), so no two processes take one.
   */
  async claimDue(now: Date, limit: number): Promise<DueReminder[]> {
    const result = await sql<DueReminder>`
      update reminders set status = 'sending', attempts = attempts + 1, claimed_until = ${now}::timestamptz + make_interval(secs => ${CLAIM_SECONDS})
      where id in (
        select id from reminders
        where remind_at <= ${now} and (status = 'pending' or (status = 'sending' and claimed_until < ${now}))
        order by remind_at
        limit ${limit}
        for update skip locked
      )
      returning id, org_id, user_id, event_id, appointment_id, occurrence_start, remind_at, attempts`.execute(this.db);
    return result.rows;
  }

  async finish(id: string, status: 'sent' | 'missed' | 'cancelled' | 'failed'): Promise<void> {
    await this.db
      .updateTable('reminders')
      .set({ status, claimed_until: null, ...(status === 'sent' ? { sent_at: sql`now()` } : {}) })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .execute();
  }

  /** A failed send is tried again a minute later, up to MAX_ATTEMPTS. */
  async retryLater(id: string, attempts: number): Promise<void> {
    await this.db
      .updateTable('reminders')
      .set(attempts >= MAX_ATTEMPTS ? { status: 'failed', claimed_until: null } : { status: 'pending', claimed_until: null, remind_at: sql`now() + interval '1 minute'` })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .execute();
  }

}
