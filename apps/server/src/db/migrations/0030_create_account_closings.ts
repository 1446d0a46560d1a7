import { sql, type Kysely } from 'kysely';

/**
 * A patient's closing of their account (issue 25 §4): asked with the password, erased by the
 * job once `erase_after` has passed unless the holder signed in before (then cancelled). One
 * pending closing per account (a unique partial index: two requests at once make one). Once
 * erased the row stays as the tombstone: no user, no name or address, only the pseudonym that
 * the organisation's audit trail now carries instead of the person, and when it happened.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_closings (
      id serial primary key,
      org_id integer not null references organizations(id) on delete cascade,
      user_id integer references users(id) on delete set null,
      pseudonym text not null unique,
      status text not null default 'pending' check (status in ('pending', 'cancelled', 'erased')),
      requested_at timestamptz not null default now(),
      erase_after timestamptz not null,
      claimed_until timestamptz,
      cancelled_at timestamptz,
      erased_at timestamptz,
      dependants integer not null default 0,
      erased_summary jsonb
    )`.execute(db);
  await sql`create unique index account_closings_one_pending on account_closings (user_id) where status = 'pending'`.execute(db);
  await sql`
    create table erased_shares (
      uid text primary key,
      token_hash text not null,
      erased_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index account_closings_due on account_closings (erase_after) where status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table erased_shares`.execute(db);
  await sql`drop table account_closings`.execute(db);
}
