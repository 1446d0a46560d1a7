import { sql, type Kysely } from 'kysely';

/** Accounts and access: profile fields, invitations, one-time tokens, sessions, second factors, audit. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('dob', 'date')
    .addColumn('gender', 'text')
    .addColumn('sex', 'text')
    .addColumn('credential', 'text')
    .addColumn('address', 'text')
    .addColumn('city', 'text')
    .addColumn('state', 'text')
    .addColumn('zip_code', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('imperial_units', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('avatar_key', 'text')
    .addColumn('avatar_content_type', 'text')
    .addColumn('settings', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('wizard_steps', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
    .addColumn('wizard_complete', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('email_confirmed_at', 'timestamptz')
    .addColumn('password_changed_at', 'timestamptz')
    .execute();
  // Demo and earlier users are confirmed.
  await sql`update users set email_confirmed_at = created_at`.execute(db);

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('dob', 'date', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('invitations_code_hash_key').unique().on('invitations').column('code_hash').execute();
  await db.schema.createIndex('invitations_org_lookup').on('invitations').columns(['org_id', 'dob']).execute();

  // One-time tokens sent by e-mail (confirmation, password reset): only their hash is kept.
  await db.schema
    .createTable('user_tokens')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('confirm_email', 'reset_password')`))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('user_tokens_hash_key').unique().on('user_tokens').column('token_hash').execute();

  // A sign-in: its refresh token rotates (refresh_jti); a replayed old one revokes the session.
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('access', 'text', (c) => c.notNull().check(sql`access in ('full', 'limited')`))
    .addColumn('refresh_jti', 'text', (c) => c.notNull())
    .addColumn('mfa_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('mfa_devices')
    .addColumn('uuid', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_type', 'text', (c) => c.notNull().check(sql`device_type in ('email', 'google')`))
    .addColumn('secret_enc', 'text')
    .addColumn('confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('last_used_step', 'bigint')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('mfa_devices_user').on('mfa_devices').column('user_id').execute();

  // Codes e-mailed for a second factor: bound to one session (sign-in) or one device (enrolment).
  await db.schema
    .createTable('mfa_codes')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_id', 'uuid', (c) => c.references('sessions.id').onDelete('cascade'))
    .addColumn('device_uuid', 'uuid', (c) => c.references('mfa_devices.uuid').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('actor_user_id', 'integer')
    .addColumn('org_id', 'integer')
    .addColumn('ip', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('success', 'failure', 'denied')`))
    .addColumn('subject', 'text')
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.createIndex('audit_log_subject_at').on('audit_log').columns(['action', 'subject', 'at']).execute();

  await db.schema
    .createTable('profile_questions')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('question_type', 'text', (c) => c.notNull().check(sql`question_type in ('text', 'choice', 'boolean')`))
    .addColumn('text_en', 'text', (c) => c.notNull())
    .addColumn('text_el', 'text', (c) => c.notNull())
    .addColumn('options', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema
    .createTable('profile_answers')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('profile_questions.id').onDelete('cascade'))
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('profile_answers_pkey', ['user_id', 'question_id'])
    .execute();

  await db.schema
    .createTable('welcome_messages')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title_en', 'text', (c) => c.notNull())
    .addColumn('title_el', 'text', (c) => c.notNull())
    .addColumn('message_en', 'text', (c) => c.notNull())
    .addColumn('message_el', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['welcome_messages', 'profile_answers', 'profile_questions', 'audit_log', 'mfa_codes', 'mfa_devices', 'sessions', 'user_tokens', 'invitations']) {
    await db.schema.dropTable(table).execute();
  }
}
