import { sql, type Kysely } from 'kysely';

/**
 * An Apple Health export being imported (issue 28 §4): the upload is read in the background, its
 * progress and outcome kept here so that any process answers the page that follows it.
 *
 * - `status`: reading (the zip), ready (read: the clinical records wait for the import's preview,
 *   the measurements for the patient's choice), importing (the measurements chosen), done, failed.
 * - `clinical`: the clinical records as a FHIR R4 Bundle; `measurements`: the readings kept
 *   (thinned), compact; both dropped once done and the row itself after a day.
 * - `heartbeat_at`: bumped while a process works on it; a reading or importing row whose heartbeat
 *   stopped (its process ended) is told as interrupted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table apple_health_imports (
      id serial primary key,
      org_id integer not null references organizations(id) on delete cascade,
      patient_id integer not null references patients(id) on delete cascade,
      created_by integer references users(id) on delete set null,
      file_name text not null,
      thin text not null check (thin in ('day', 'none')),
      time_zone text not null,
      status text not null default 'reading' check (status in ('reading', 'ready', 'importing', 'done', 'failed')),
      progress_done bigint not null default 0,
      progress_total bigint not null default 0,
      error_code text,
      counts jsonb,
      clinical jsonb,
      measurements jsonb,
      result jsonb,
      heartbeat_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index apple_health_imports_patient on apple_health_imports (patient_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table apple_health_imports`.execute(db);
}
