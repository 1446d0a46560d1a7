import { sql, type Kysely } from 'kysely';

/**
 * A PDF export is a row from the moment it is asked for: `running` while its PDF is made (how far,
 * from 0 to 1, in `progress`; `updated_at` moves with it), then `done` (its file in `storage_key`)
 * or `failed` (the reason's message key in `error`). One running export per patient, across
 * every process: a partial unique index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exports
    add column status text not null default 'done' check (status in ('running', 'done', 'failed')),
    add column progress real not null default 1,
    add column error text,
    add column updated_at timestamptz not null default now(),
    alter column storage_key drop not null`.execute(db);
  await sql`create unique index exports_one_running_per_patient on exports (patient_id) where status = 'running'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index exports_one_running_per_patient`.execute(db);
  await sql`delete from exports where storage_key is null`.execute(db);
  await sql`alter table exports drop column status, drop column progress, drop column error, drop column updated_at, alter column storage_key set not null`.execute(db);
}
