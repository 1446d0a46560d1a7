import { sql, type Kysely } from 'kysely';

/**
 * The video visit of a telehealth appointment (issue 29): at most one per appointment, made when
 * the provider starts it (or, later, when the patient side first waits for it).
 *
 * - `status`: waiting (the patient side waits to be let in), active (the provider admitted them),
 *   ended (by either side, or when its window closed).
 * - `admitted_at` to `ended_at` is the visit's length, which the appointment shows.
 * - `extended_until`: the provider's extension of the window past the appointment's end
 *   (bounded by VISIT_EXTEND_MAX_MINUTES, packages/shared visits.ts).
 * Nothing of the call itself is kept: media go from browser to browser and are never recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table visits (
      id serial primary key,
      org_id integer not null references organizations(id) on delete cascade,
      appointment_id integer not null unique references appointments(id) on delete cascade,
      patient_id integer not null references patients(id) on delete cascade,
      provider_id integer not null references users(id) on delete cascade,
      status text not null default 'waiting' check (status in ('waiting', 'active', 'ended')),
      admitted_at timestamptz,
      ended_at timestamptz,
      ended_by integer references users(id) on delete set null,
      end_reason text check (end_reason in ('provider', 'patient', 'window')),
      extended_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index visits_patient on visits (patient_id)`.execute(db);
  await sql`create index visits_provider on visits (provider_id, status)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table visits`.execute(db);
}
