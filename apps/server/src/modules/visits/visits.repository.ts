import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { VisitsTable } from '../../db/schema';

export type VisitRow = Selectable<VisitsTable>;

/**
 * The visits of appointments. Every change is one conditional statement, so that requests sent at
 * once (two "start", a "start" and an "end") leave one outcome and say whether they made it.
 * Callers have already established that the actor is a participant of the appointment.
 */
export class VisitsRepository {
  constructor(private readonly db: Db) {}

  byAppointment(appointmentId: number): Promise<VisitRow | undefined> {
    return this.db.selectFrom('visits').selectAll().where('appointment_id', '=', appointmentId).executeTakeFirst();
  }

  /** The record of the visit's note, the visit locked until the transaction ends (notes written at once make one record). */
  async lockNote(appointmentId: number): Promise<number | null> {
    const row = await this.db.selectFrom('visits').select('note_record_id').where('appointment_id', '=', appointmentId).forUpdate().executeTakeFirst();
    return row?.note_record_id ?? null;
  }

  /** Keeps the record of the visit's note. */
  async keepNote(appointmentId: number, recordId: number): Promise<void> {
    await this.db.updateTable('visits').set({ note_record_id: recordId, updated_at: sql`now()` }).where('appointment_id', '=', appointmentId).execute();
  }

  /** The patient side is here: the visit waits for the provider (made now if none was; an admitted or ended one is left as it is). */
  async wait(appointment: { id: number; org_id: number; patient_id: number; provider_id: number }): Promise<void> {
    await this.db
      .insertInto('visits')
      .values({ org_id: appointment.org_id, appointment_id: appointment.id, patient_id: appointment.patient_id, provider_id: appointment.provider_id, status: 'waiting' })
      .onConflict((oc) => oc.column('appointment_id').doNothing())
      .execute();
  }

  /** Admits: makes the visit active (made now if none was). Null when it is already active or ended (nothing changed). */
  async admit(appointment: { id: number; org_id: number; patient_id: number; provider_id: number }): Promise<VisitRow | null> {
    const made = await this.db
      .insertInto('visits')
      .values({ org_id: appointment.org_id, appointment_id: appointment.id, patient_id: appointment.patient_id, provider_id: appointment.provider_id, status: 'active', admitted_at: sql`now()` })
      .onConflict((oc) => oc.column('appointment_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (made) return made;
    const moved = await this.db
      .updateTable('visits')
      .set({ status: 'active', admitted_at: sql`now()`, updated_at: sql`now()` })
      .where('appointment_id', '=', appointment.id)
      .where('status', '=', 'waiting')
      .returningAll()
      .executeTakeFirst();
    return moved ?? null;
  }

  /** Moves the end of the window to `until` (never back). Null when the visit ended or already runs that long. */
  async extend(appointmentId: number, until: Date): Promise<VisitRow | null> {
    const row = await this.db
      .updateTable('visits')
      .set({ extended_until: until, updated_at: sql`now()` })
      .where('appointment_id', '=', appointmentId)
      .where('status', '<>', 'ended')
      .where((eb) => eb.or([eb('extended_until', 'is', null), eb('extended_until', '<', until)]))
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }

  /** Ends the visit, once. Null when there was none to end, or it had ended already. */
  async end(appointmentId: number, by: number | null, reason: 'provider' | 'patient' | 'window'): Promise<VisitRow | null> {
    const row = await this.db
      .updateTable('visits')
      .set({ status: 'ended', ended_at: sql`now()`, ended_by: by, end_reason: reason, updated_at: sql`now()` })
      .where('appointment_id', '=', appointmentId)
      .where('status', '<>', 'ended')
      .returningAll()
      .executeTakeFirst();
    return row ?? null;
  }
}
