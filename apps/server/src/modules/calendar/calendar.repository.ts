import { sql, type Insertable, type Selectable } from 'kysely';
import { holdForTransaction } from '../../db/advisory-lock';
import type { Db } from '../../db/client';
import type { CalendarEventsTable } from '../../db/schema';
import type { PatientScope } from '../patients/patient-scope';

export type CalendarEventRow = Selectable<CalendarEventsTable>;
export type CalendarEventValues = Omit<Insertable<CalendarEventsTable>, 'id' | 'org_id' | 'patient_id' | 'created_at' | 'updated_at' | 'created_by'>;

/** One patient's calendar events. */
export class CalendarRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  private events() {
    return this.db.selectFrom('calendar_events').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId);
  }

  /** Events (and series) with an occurrence that may overlap [from, to): started before `to`, not ended before `from`. */
  inWindow(from: Date, to: Date): Promise<CalendarEventRow[]> {
    return this.events()
      .selectAll()
      .where('start_time', '<', to)
      .where((eb) => eb.or([eb('series_end', 'is', null), eb('series_end', '>', from)]))
      .orderBy('start_time')
      .orderBy('id')
      .execute();
  }

  /**
   * How many events the patient has, and of them recurring series (for the caps of calendar.limits.ts).
   * In a transaction, the patient's other creates wait until it ends: what is counted is what is there when it inserts.
   */
  async counts(): Promise<{ events: number; series: number }> {
    await holdForTransaction(this.db, 'calendar-cap', this.scope.patientId);
    const row = await this.events()
      .select([sql<string>`count(*)`.as('events'), sql<string>`count(*) filter (where recurrence is not null)`.as('series')])
      .executeTakeFirstOrThrow();
    return { events: Number(row.events), series: Number(row.series) };
  }

  get(id: number): Promise<CalendarEventRow | undefined> {
    return this.events().selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(values: CalendarEventValues, userId: number): Promise<CalendarEventRow> {
    return this.db
      .insertInto('calendar_events')
      .values({ ...values, org_id: this.scope.orgId, patient_id: this.scope.patientId, created_by: userId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: number, values: CalendarEventValues): Promise<CalendarEventRow | undefined> {
    return this.db
      .updateTable('calendar_events')
      .set({ ...values, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async remove(id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('calendar_events')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** What a reminder e-mail of an event says (the scheduler serves every organisation). */
  static reminderEvent(db: Db, orgId: number, id: number) {
    return db.selectFrom('calendar_events').select(['title', 'type', 'description', 'timezone', 'all_day']).where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
  }

  /** Recurring events with reminders, of patients with an account, not over at `now` (the scheduler extends their reminders). */
  static recurringWithReminders(db: Db, now: Date) {
    return db
      .selectFrom('calendar_events as e')
      .innerJoin('patients as p', 'p.id', 'e.patient_id')
      .selectAll('e')
      .select('p.user_id as patient_user_id')
      .where('e.recurrence', 'is not', null)
      .where('e.reminder_minutes', 'is not', null)
      .where('p.user_id', 'is not', null)
      .where((eb) => eb.or([eb('e.series_end', 'is', null), eb('e.series_end', '>', now)]))
      .execute();
  }
}
