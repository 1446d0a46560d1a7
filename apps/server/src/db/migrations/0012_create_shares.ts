import { sql, type Kysely } from 'kysely';

/**
 * Sharing a patient's record with someone who has no account (SMART Health Links rules where
 * they fit):
 * - `shares`: what is shared (whole categories, single records or documents: read live at each
 *   opening, private records never), with whom, how (link: a code e-mailed to the recipient;
 *   QR: a passcode), until when. The address's token (256 bits) is kept as its SHA-256 only; the
 *   e-mailed code and the passcode are kept hashed with the token, which is not stored, so a
 *   copy of this table opens nothing. `failed_attempts` counts wrong codes over the share's
 *   lifetime and is moved atomically; five lock the share.
 * - `share_sessions`: a recipient's verified browser session (a 256-bit token, hashed).
 * - `share_accesses`: every opening (who saw my record): when, from where, what was shown.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table shares (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      created_by integer references users(id) on delete set null,
      uid text not null unique,
      token_hash text not null,
      kind text not null check (kind in ('records', 'documents')),
      method text not null check (method in ('link', 'qr')),
      recipient_name text not null,
      recipient_email text not null,
      language text not null default 'en',
      message text,
      categories text[] not null default '{}',
      record_ids integer[] not null default '{}',
      document_ids integer[] not null default '{}',
      passcode_hash text,
      code_hash text,
      code_expires_at timestamptz,
      failed_attempts integer not null default 0 check (failed_attempts between 0 and 5),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      first_opened_at timestamptz,
      created_at timestamptz not null default now(),
      check (method <> 'qr' or passcode_hash is not null)
    )`.execute(db);
  await sql`create index shares_patient on shares (patient_id, created_at desc)`.execute(db);

  await sql`
    create table share_sessions (
      id bigserial primary key,
      share_id integer not null references shares(id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index share_sessions_share on share_sessions (share_id)`.execute(db);

  await sql`
    create table share_accesses (
      id bigserial primary key,
      share_id integer not null references shares(id) on delete cascade,
      session_id bigint references share_sessions(id) on delete set null,
      action text not null check (action in ('verified', 'viewed', 'pdf', 'document')),
      ip text,
      user_agent text,
      shown jsonb not null default '{}',
      opened_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index share_accesses_share on share_accesses (share_id, opened_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['share_accesses', 'share_sessions', 'shares']) await sql`drop table ${sql.table(table)}`.execute(db);
}
