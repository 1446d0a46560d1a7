import { sql, type Kysely } from 'kysely';

/**
 * The people of an organisation (the administrator's home):
 * - `users.invited_at`: staff an administrator invited; until they set a password (which confirms
 *   their address) they show as invited.
 * - Patients invited in bulk from a CSV file: the import, its rows (each with its problems and
 *   what became of it), and the addresses an import has invited in an organisation (one row per
 *   address, taken atomically: the same file uploaded again, or two imports sent at once, invite
 *   nobody twice).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column invited_at timestamptz`.execute(db);

  await db.schema
    .createTable('patient_imports')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_sha256', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('preview').check(sql`status in ('preview', 'sending', 'done')`))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('patient_imports_org').on('patient_imports').columns(['org_id', 'created_at']).execute();

  await db.schema
    .createTable('patient_import_rows')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('import_id', 'integer', (c) => c.notNull().references('patient_imports.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('dob', 'text', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('problems', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('invalid', 'ready', 'sending', 'sent', 'skipped', 'failed')`))
    .addColumn('claimed_at', 'timestamptz')
    .addColumn('invitation_id', 'integer', (c) => c.references('invitations.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('patient_import_rows_import').on('patient_import_rows').columns(['import_id', 'status', 'line']).execute();

  await db.schema
    .createTable('patient_import_emails')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('import_id', 'integer', (c) => c.notNull().references('patient_imports.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('patient_import_emails_pkey', ['org_id', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('patient_import_emails').execute();
  await db.schema.dropTable('patient_import_rows').execute();
  await db.schema.dropTable('patient_imports').execute();
  await sql`alter table users drop column invited_at`.execute(db);
}
