import { sql, type Kysely } from 'kysely';

/**
 * Every tenant table carries its organisation (org_id), so repositories filter by it
 * themselves; counters for the security limits (checked and counted in one statement);
 * e-mail change tokens carry the new address.
 */
const TENANT_CHILDREN = ['mfa_devices', 'mfa_codes', 'user_tokens', 'profile_answers'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TENANT_CHILDREN) {
    await db.schema
      .alterTable(table)
      .addColumn('org_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
      .execute();
    await sql`update ${sql.table(table)} t set org_id = u.org_id from users u where u.id = t.user_id`.execute(db);
    await sql`alter table ${sql.table(table)} alter column org_id set not null`.execute(db);
  }
  await db.schema.createIndex('mfa_devices_org_user').on('mfa_devices').columns(['org_id', 'user_id']).execute();
  await db.schema.createIndex('profile_answers_org_user').on('profile_answers').columns(['org_id', 'user_id']).execute();
  await db.schema.createIndex('audit_log_org_at').on('audit_log').columns(['org_id', 'at']).execute();

  // One row per limited thing (a sign-in account, a pending sign-in, a reset address...):
  // attempts in the current window, incremented and checked in one statement.
  await db.schema
    .createTable('attempt_counters')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('window_started_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('attempt_counters_pkey', ['scope', 'key'])
    .execute();

  // The session's own counter of second-factor attempts gives way to attempt_counters.
  await db.schema.alterTable('sessions').dropColumn('mfa_attempts').execute();

  // E-mail change links carry the address they confirm.
  await db.schema.alterTable('user_tokens').addColumn('new_email', 'text').execute();
  await sql`alter table user_tokens drop constraint if exists user_tokens_purpose_check`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('confirm_email', 'reset_password', 'change_email'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table user_tokens drop constraint if exists user_tokens_purpose_check`.execute(db);
  await sql`delete from user_tokens where purpose = 'change_email'`.execute(db);
  await sql`alter table user_tokens add constraint user_tokens_purpose_check check (purpose in ('confirm_email', 'reset_password'))`.execute(db);
  await db.schema.alterTable('user_tokens').dropColumn('new_email').execute();
  await db.schema.alterTable('sessions').addColumn('mfa_attempts', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.dropTable('attempt_counters').execute();
  await db.schema.dropIndex('audit_log_org_at').execute();
  await db.schema.dropIndex('profile_answers_org_user').execute();
  await db.schema.dropIndex('mfa_devices_org_user').execute();
  for (const table of TENANT_CHILDREN) await db.schema.alterTable(table).dropColumn('org_id').execute();
}
