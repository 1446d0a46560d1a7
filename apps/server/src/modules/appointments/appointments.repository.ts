import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';
import type { CareTeamScope } from '../patients/care-team-scope';
import type { PatientScope } from '../patients/patient-scope';
import type { AppointmentsTable, AvailabilitySlotsTable, ProvidersTable } from '../../db/schema';
import type { SlotTime } from './availability';

export type ProviderRow = Selectable<ProvidersTable> & { first_name: string; last_name: string; email: string; avatar_key: string | null; settings: Record<string, unknown> };
export type SlotRow = Selectable<AvailabilitySlotsTable>;
/** An appointment with the names both sides see. */
export type AppointmentRow = Selectable<AppointmentsTable> & {
  provider_first_name: string;
  provider_last_name: string;
  provider_speciality: string | null;
  provider_speciality_el: string | null;
  provider_timezone: string;
  patient_first_name: string | null;
  patient_last_name: string | null;
  patient_user_id: number | null;
  /** Who booked it, when not the patient's own account (a care-network person acting for them). */
  booked_by_name: string | null;
  /** Who cancelled it on the patient's side, when not the patient's own account. */
  cancelled_by_name: string | null;
};

/** Providers of one organisation: users with the provider role and a provider profile. */
export class ProvidersRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private providers() {
    return this.db
      .selectFrom('providers as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .where('p.org_id', '=', this.scope.orgId)
      .where('u.org_id', '=', this.scope.orgId)
      .where('u.is_active', '=', true)
      .where(sql<boolean>`'provider' = any(u.roles)`)
      .selectAll('p')
      .select(['u.first_name', 'u.last_name', 'u.email', 'u.avatar_key', 'u.settings']);
  }

  list(speciality?: string): Promise<ProviderRow[]> {
    let query = this.providers();
    // In either language the provider gives it.
    if (speciality) query = query.where((eb) => eb.or([eb(sql`lower(p.speciality)`, '=', speciality.toLowerCase()), eb(sql`lower(p.speciality_el)`, '=', speciality.toLowerCase())]));
    return query.orderBy('u.last_name').orderBy('u.first_name').orderBy('p.user_id').execute() as Promise<ProviderRow[]>;
  }

  get(userId: number): Promise<ProviderRow | undefined> {
    return this.providers().where('p.user_id', '=', userId).executeTakeFirst() as Promise<ProviderRow | undefined>;
  }

  /** The specialities offered, each in the reader's language when the provider gives it (Greek: speciality_el), else as given. */
  async specialities(language: string): Promise<string[]> {
    const [first, second] = language.startsWith('el') ? (['p.speciality_el', 'p.speciality'] as const) : (['p.speciality', 'p.speciality_el'] as const);
    const rows = await this.providers()
      .clearSelect()
      .select(sql<string>`coalesce(nullif(${sql.ref(first)}, ''), ${sql.ref(second)})`.as('name'))
      .distinct()
      .where((eb) => eb.or([eb('p.speciality', 'is not', null), eb('p.speciality_el', 'is not', null)]))
      .orderBy('name')
      .execute();
    return rows.map((r) => r.name).filter(Boolean);
  }

  /** A provider's profile row, made on first use (a user given the provider role has none yet). */
  async ensure(userId: number): Promise<void> {
    await this.db.insertInto('providers').values({ user_id: userId, org_id: this.scope.orgId }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
  }

  async updateProfile(userId: number, changes: Partial<Pick<ProviderRow, 'speciality' | 'speciality_el' | 'credentials' | 'languages' | 'biography'>>): Promise<void> {
    if (!Object.keys(changes).length) return;
    await this.db.updateTable('providers').set({ ...changes, updated_at: sql`now()` }).where('user_id', '=', userId).where('org_id', '=', this.scope.orgId).execute();
  }

  async saveSchedule(userId: number, schedule: Pick<ProviderRow, 'slot_minutes' | 'timezone' | 'weekly' | 'exceptions'>): Promise<void> {
    await this.db
      .updateTable('providers')
      .set({ slot_minutes: schedule.slot_minutes, timezone: schedule.timezone, weekly: JSON.stringify(schedule.weekly), exceptions: JSON.stringify(schedule.exceptions), updated_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('org_id', '=', this.scope.orgId)
      .execute();
  }

  /** Every provider with a schedule (the scheduler keeps their slots rolling). */
  static withSchedules(db: Db) {
    return db
      .selectFrom('providers as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .where(sql<boolean>`'provider' = any(u.roles)`)
      .where('u.is_active', '=', true)
      .where(sql<boolean>`jsonb_array_length(p.weekly) > 0 or jsonb_array_length(p.exceptions) > 0`)
      .select(['p.user_id', 'p.org_id', 'p.slot_minutes', 'p.timezone', 'p.weekly', 'p.exceptions'])
      .execute();
  }
}

const freeSlot = sql<boolean>`not s.withdrawn and not exists (select 1 from appointments a where a.slot_id = s.id and a.status = 'booked')`;

/** The slots of one organisation's providers. */
export class SlotsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  /** Free slots of a provider starting in [from, to) and after `notBefore`. */
  free(providerId: number, from: Date, to: Date, notBefore: Date): Promise<SlotRow[]> {
    return this.db
      .selectFrom('availability_slots as s')
      .selectAll('s')
      .where('s.org_id', '=', this.scope.orgId)
      .where('s.provider_id', '=', providerId)
      .where('s.start_time', '>=', from > notBefore ? from : notBefore)
      .where('s.start_time', '<', to)
      .where(freeSlot)
      .orderBy('s.start_time')
      .execute();
  }

  /** Each provider's first free slot from `notBefore` on (and, with a window, only those with one in it). */
  async firstFree(notBefore: Date, window?: { from: Date; to: Date }): Promise<Map<number, Date>> {
    let query = this.db
      .selectFrom('availability_slots as s')
      .where('s.org_id', '=', this.scope.orgId)
      .where('s.start_time', '>=', window && window.from > notBefore ? window.from : notBefore)
      .where(freeSlot)
      .select(['s.provider_id', sql<Date>`min(s.start_time)`.as('first')])
      .groupBy('s.provider_id');
    if (window) query = query.where('s.start_time', '<', window.to);
    const rows = await query.execute();
    return new Map(rows.map((r) => [r.provider_id, new Date(r.first)]));
  }

  countFree(providerId: number, notBefore: Date): Promise<number> {
    return this.db
      .selectFrom('availability_slots as s')
      .where('s.org_id', '=', this.scope.orgId)
      .where('s.provider_id', '=', providerId)
      .where('s.start_time', '>=', notBefore)
      .where(freeSlot)
      .select(sql<string>`count(*)`.as('n'))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  /**
   * Makes the provider's future slots from `from` on exactly `desired`: new ones are added, ones
   * offered again are reopened, ones no longer offered are withdrawn (a booked one stays booked:
   * its appointment stands until someone cancels it). Idempotent.
   */
  async publish(providerId: number, desired: SlotTime[], from: Date): Promise<void> {
    const starts = desired.map((s) => s.start.toISOString());
    await this.db
      .updateTable('availability_slots')
      .set({ withdrawn: true })
      .where('org_id', '=', this.scope.orgId)
      .where('provider_id', '=', providerId)
      .where('start_time', '>=', from)
      .where('withdrawn', '=', false)
      .$if(starts.length > 0, (q) => q.where(sql<boolean>`not (start_time = any(${starts}::timestamptz[]))`))
      .execute();
    for (let i = 0; i < desired.length; i += 500) {
      const chunk = desired.slice(i, i + 500);
      await this.db
        .insertInto('availability_slots')
        .values(chunk.map((s) => ({ org_id: this.scope.orgId, provider_id: providerId, start_time: s.start, end_time: s.end })))
        .onConflict((oc) => oc.columns(['provider_id', 'start_time']).doUpdateSet({ withdrawn: false, end_time: sql`excluded.end_time` }))
        .execute();
    }
  }

  /** The slot, locked for the booking's transaction. */
  lock(slotId: number, providerId: number): Promise<SlotRow | undefined> {
    return this.db
      .selectFrom('availability_slots')
      .selectAll()
      .where('org_id', '=', this.scope.orgId)
      .where('provider_id', '=', providerId)
      .where('id', '=', slotId)
      .forUpdate()
      .executeTakeFirst();
  }
}

/** Appointments of one organisation. */
export class AppointmentsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private appointments() {
    return this.db
      .selectFrom('appointments as a')
      .innerJoin('users as pu', 'pu.id', 'a.provider_id')
      .leftJoin('providers as pr', 'pr.user_id', 'a.provider_id')
      .innerJoin('patients as pt', 'pt.id', 'a.patient_id')
      .leftJoin('users as ptu', 'ptu.id', 'pt.user_id')
      .where('a.org_id', '=', this.scope.orgId)
      .selectAll('a')
      .select([
        'pu.first_name as provider_first_name',
        'pu.last_name as provider_last_name',
        'pr.speciality as provider_speciality',
        'pr.speciality_el as provider_speciality_el',
        sql<string>`coalesce(pr.timezone, 'UTC')`.as('provider_timezone'),
        // A patient with an account is named by the account.
        sql<string | null>`coalesce(ptu.first_name, pt.first_name)`.as('patient_first_name'),
        sql<string | null>`coalesce(ptu.last_name, pt.last_name)`.as('patient_last_name'),
        'pt.user_id as patient_user_id',
        // Acting for the patient: the care-network person who booked or cancelled, named (never the patient, never the provider).
        sql<string | null>`case when a.booked_by is not null and a.booked_by is distinct from pt.user_id then (select nullif(trim(concat_ws(' ', b.first_name, b.last_name)), '') from users b where b.id = a.booked_by) end`.as('booked_by_name'),
        sql<string | null>`case when a.status = 'cancelled' and not a.cancelled_by_provider and a.cancelled_by is not null and a.cancelled_by is distinct from pt.user_id then (select nullif(trim(concat_ws(' ', c.first_name, c.last_name)), '') from users c where c.id = a.cancelled_by) end`.as('cancelled_by_name'),
      ]);
  }

  /** A patient's or a provider's appointments, by start; optionally those starting in [from, to) and of a status. */
  list(filter: { patientId?: number; providerId?: number; from?: Date; to?: Date; status?: 'booked' | 'cancelled' }, limit = 500): Promise<AppointmentRow[]> {
    let query = this.appointments();
    if (filter.patientId !== undefined) query = query.where('a.patient_id', '=', filter.patientId);
    if (filter.providerId !== undefined) query = query.where('a.provider_id', '=', filter.providerId);
    if (filter.from) query = query.where('a.start_time', '>=', filter.from);
    if (filter.to) query = query.where('a.start_time', '<', filter.to);
    if (filter.status) query = query.where('a.status', '=', filter.status);
    return query.orderBy('a.start_time').orderBy('a.id').limit(limit).execute() as Promise<AppointmentRow[]>;
  }

  /** The appointment of a slot: the booked one, else the latest cancelled one. */
  bySlot(slotId: number): Promise<AppointmentRow | undefined> {
    return this.appointments()
      .where('a.slot_id', '=', slotId)
      .orderBy(sql`a.status = 'booked'`, 'desc')
      .orderBy('a.id', 'desc')
      .executeTakeFirst() as Promise<AppointmentRow | undefined>;
  }

  byId(id: number): Promise<AppointmentRow | undefined> {
    return this.appointments().where('a.id', '=', id).executeTakeFirst() as Promise<AppointmentRow | undefined>;
  }

  async insert(values: { patient_id: number; provider_id: number; slot: SlotRow; reason_for_visit: string; booked_by: number }): Promise<number> {
    const row = await this.db
      .insertInto('appointments')
      .values({
        org_id: this.scope.orgId,
        patient_id: values.patient_id,
        provider_id: values.provider_id,
        slot_id: values.slot.id,
        start_time: values.slot.start_time,
        end_time: values.slot.end_time,
        reason_for_visit: values.reason_for_visit,
        booked_by: values.booked_by,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Cancels a booked appointment; false when it was no longer booked (cancelled meanwhile). */
  async cancel(id: number, by: number, byProvider: boolean, notes: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('appointments')
      .set({ status: 'cancelled', cancelled_at: sql`now()`, cancelled_by: by, cancelled_by_provider: byProvider, cancellation_notes: notes })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .where('status', '=', 'booked')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

/**
 * One patient's appointments, built for the patient's scope: what a patient (or someone acting
 * for them) lists and books. The provider's side is ProviderAppointmentsRepository below; a
 * look-up by slot, which the service authorises against the row before anything of it is
 * answered, and the system's own work (reminders, an account's erasure) stay with the
 * organisation's repository above.
 */
export class PatientAppointmentsRepository {
  private readonly all: AppointmentsRepository;

  constructor(
    db: Db,
    private readonly scope: PatientScope,
  ) {
    this.all = new AppointmentsRepository(db, { orgId: scope.orgId });
  }

  list(filter: { from?: Date; to?: Date; status?: 'booked' | 'cancelled' }, limit = 500): Promise<AppointmentRow[]> {
    return this.all.list({ ...filter, patientId: this.scope.patientId }, limit);
  }

  insert(values: { provider_id: number; slot: SlotRow; reason_for_visit: string; booked_by: number }): Promise<number> {
    return this.all.insert({ ...values, patient_id: this.scope.patientId });
  }
}

/** A provider's own appointments, built for their care-team scope: nothing of another provider's bookings. */
export class ProviderAppointmentsRepository {
  private readonly all: AppointmentsRepository;

  constructor(
    db: Db,
    private readonly scope: CareTeamScope,
  ) {
    this.all = new AppointmentsRepository(db, { orgId: scope.orgId });
  }

  list(filter: { from?: Date; to?: Date; status?: 'booked' | 'cancelled' }, limit = 5000): Promise<AppointmentRow[]> {
    return this.all.list({ ...filter, providerId: this.scope.staffUserId }, limit);
  }

  /** The appointment of one of the provider's slots (undefined for anyone else's). */
  async bySlot(slotId: number): Promise<AppointmentRow | undefined> {
    const row = await this.all.bySlot(slotId);
    return row && row.provider_id === this.scope.staffUserId ? row : undefined;
  }
}
