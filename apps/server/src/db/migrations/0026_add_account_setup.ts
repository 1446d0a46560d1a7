import { sql, type Kysely } from 'kysely';

/**
 * Accounts made by an operator or an administrator start without a password: the person sets
 * it through a single-use e-mailed link (token purpose `account_setup`). No password exists
 * until then, so none can be guessed or left at a default: a null hash never signs in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users alter column password_hash drop not null`.execute(db);
  await sql`alter table user_tokens drop constraint if exists user_tokens_purpose_check`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('confirm_email', 'reset_password', 'change_email', 'account_setup'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_tokens drop constraint if exists user_tokens_purpose_check`.execute(db);
  await sql`delete from user_tokens where purpose = 'account_setup'`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('confirm_email', 'reset_password', 'change_email'))`.execute(db);
  // An account still waiting for its password gets a hash that matches no password.
  await sql`update users set password_hash = '!' where password_hash is null`.execute(db);
  await sql`alter table users alter column password_hash set not null`.execute(db);
}
