import { sql, type Kysely } from 'kysely';

/**
 * The connection hub (issue 13, item 3): one person's accounts in two organisations, linked.
 *
 * - `account_links`: one row per pair of accounts in different organisations, whoever linked
 *   them (the pair is stored in order, user_a < user_b, so it is unique regardless of order).
 *   Unlinking deletes the row: gone for both sides at once.
 * - `account_link_tokens`: a switch from one account to the other: a random token, stored
 *   hashed, single use (used_at set atomically), alive 60 seconds; it names the session it was
 *   asked from (ended when the switch completes). Deleted with its link.
 * - `account_link_devices`: the browsers a linked account's second factor was passed on (an
 *   HttpOnly device cookie, stored hashed), so that switching asks for it once per device.
 *   `session_id`: a switch that asked for the second factor; once that session is upgraded to
 *   full, the device counts as confirmed.
 * - `mfa_codes.link_from_user_id`: an e-mailed second-factor code asked by linking (bound to the
 *   account linking, as a sign-in's code is bound to its session).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_links (
      id serial primary key,
      user_a integer not null references users(id) on delete cascade,
      org_a integer not null references organizations(id) on delete cascade,
      user_b integer not null references users(id) on delete cascade,
      org_b integer not null references organizations(id) on delete cascade,
      created_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      check (user_a < user_b),
      check (org_a <> org_b),
      unique (user_a, user_b)
    )`.execute(db);
  await sql`create index account_links_b on account_links (user_b)`.execute(db);

  await sql`
    create table account_link_tokens (
      id serial primary key,
      link_id integer not null references account_links(id) on delete cascade,
      token_hash text not null unique,
      from_user_id integer not null references users(id) on delete cascade,
      from_session_id uuid references sessions(id) on delete set null,
      to_user_id integer not null references users(id) on delete cascade,
      to_org_id integer not null references organizations(id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index account_link_tokens_expiry on account_link_tokens (expires_at)`.execute(db);

  await sql`
    create table account_link_devices (
      id serial primary key,
      device_hash text not null,
      user_id integer not null references users(id) on delete cascade,
      org_id integer not null references organizations(id) on delete cascade,
      session_id uuid references sessions(id) on delete set null,
      confirmed_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index account_link_devices_lookup on account_link_devices (device_hash, user_id)`.execute(db);

  await sql`alter table mfa_codes add column link_from_user_id integer references users(id) on delete cascade`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table mfa_codes drop column link_from_user_id`.execute(db);
  await sql`drop table account_link_devices`.execute(db);
  await sql`drop table account_link_tokens`.execute(db);
  await sql`drop table account_links`.execute(db);
}
