import { sql, type Kysely } from 'kysely';

/**
 * Signed-in requests are answered from a per-process copy of the session and its user (see
 * modules/auth/session-cache.ts). The database tells every process when that copy may be wrong,
 * whatever wrote the change (the API, an operator's SQL, another process): a notification on
 * `healthbook_sessions` carrying `u<user id>` or `o<organisation id>`, sent when the change commits.
 *
 * What a session answer reads: the session's access, end and revocation; the user's row; the
 * user's confirmed second-factor devices; the organisation's names; the user's own patient with
 * its data version (which moves with every change of their records and documents). A refresh
 * (a new refresh token id, last-used time) changes none of these and sends nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_session_change() returns trigger language plpgsql as $$
    declare
      id_column text := case when tg_table_name in ('users', 'organizations') then 'id' else 'user_id' end;
      prefix text := case when tg_table_name = 'organizations' then 'o' else 'u' end;
      before_id text;
      after_id text;
    begin
      if tg_op <> 'INSERT' then
        before_id := to_jsonb(old) ->> id_column;
        if before_id is not null then
          perform pg_notify('healthbook_sessions', prefix || before_id);
        end if;
      end if;
      if tg_op <> 'DELETE' then
        after_id := to_jsonb(new) ->> id_column;
        if after_id is not null and after_id is distinct from before_id then
          perform pg_notify('healthbook_sessions', prefix || after_id);
        end if;
      end if;
      return null;
    end $$`.execute(db);
  const triggers: Array<[string, string]> = [
    ['users', 'after update or delete'],
    ['organizations', 'after update or delete'],
    ['sessions', 'after update of user_id, access, expires_at, revoked_at or delete'],
    ['mfa_devices', 'after insert or update of user_id, device_type, uuid, confirmed or delete'],
    // A patient without an account (user_id null) is nobody's session.
    ['patients', 'after insert or update or delete'],
  ];
  for (const [table, when] of triggers) {
    await sql`create trigger ${sql.raw(`${table}_notify_session_change`)} ${sql.raw(when)} on ${sql.table(table)}
      for each row execute function notify_session_change()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['users', 'organizations', 'sessions', 'mfa_devices', 'patients']) {
    await sql`drop trigger ${sql.raw(`${table}_notify_session_change`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function notify_session_change()`.execute(db);
}
