import { sql, type Kysely } from 'kysely';

/**
 * PDF exports: one row per PDF made. The link's token is kept as its SHA-256 only; the link opens
 * for the user who made it, until `expires_at` (15 minutes on). The file lives in storage under
 * `storage_key`; the hourly cleanup removes expired rows and their files (claimed with FOR UPDATE
 * SKIP LOCKED, so one process removes each).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table exports (
      id serial primary key,
      org_id integer not null references organizations(id),
      user_id integer not null references users(id) on delete cascade,
      patient_id integer not null references patients(id) on delete cascade,
      token_hash text not null unique,
      storage_key text not null,
      records integer not null check (records >= 0),
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      check (expires_at > created_at)
    )`.execute(db);
  await sql`create index exports_expiry on exports (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table exports`.execute(db);
}
