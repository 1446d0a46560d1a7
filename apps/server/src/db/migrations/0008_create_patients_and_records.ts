import { sql, type Kysely } from 'kysely';

/**
 * Patients and their health records (the hub document §3, §7 "generic resource client").
 * - `patients`: whose record it is. Every user account is a patient (its own record); a trigger
 *   keeps that so for every way an account is made. A patient without an account (a child in
 *   a parent's care, later) has its own names and date of birth here.
 * - `health_records`: one table for every category; the category's values in `data` (the
 *   declaration in packages/shared decides them), the date it is ordered by in `sort_date`,
 *   the searchable text in `search_text`. Ids are unique across categories.
 * - `health_record_versions`: every change, who and when, with the values after it.
 * - `document_folders` and `documents`: the Document Center; a record's attachments are
 *   documents linked to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('patients')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.unique().references('users.id').onDelete('cascade'))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('dob', 'date')
    .addColumn('gender', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('patients_org').on('patients').column('org_id').execute();

  // Every account is a patient: existing ones now, new ones as they are inserted (signup, seed, CLI, tests alike).
  await sql`insert into patients (org_id, user_id) select org_id, id from users order by id`.execute(db);
  await sql`
    create function users_create_patient() returns trigger language plpgsql as $$
    begin
      insert into patients (org_id, user_id) values (new.org_id, new.id);
      return new;
    end $$`.execute(db);
  await sql`create trigger users_create_patient after insert on users for each row execute function users_create_patient()`.execute(db);

  await db.schema
    .createTable('health_records')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('patient_id', 'integer', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('private', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('sort_date', 'date')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await sql`create index health_records_list on health_records (patient_id, category, sort_date desc nulls last, id desc)`.execute(db);
  await db.schema.createIndex('health_records_org').on('health_records').column('org_id').execute();

  await db.schema
    .createTable('health_record_versions')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('record_id', 'integer', (c) => c.notNull().references('health_records.id').onDelete('cascade'))
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('create', 'update')`))
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .addColumn('changed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('health_record_versions_record_version', ['record_id', 'version'])
    .execute();

  await db.schema
    .createTable('document_folders')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('patient_id', 'integer', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  // One name per patient whatever its case (a Greek final ς folded as σ, as Σ lowers to σ).
  await sql`create unique index document_folders_name on document_folders (patient_id, translate(lower(name), 'ς', 'σ'))`.execute(db);

  await db.schema
    .createTable('documents')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('patient_id', 'integer', (c) => c.notNull().references('patients.id').onDelete('cascade'))
    .addColumn('folder_id', 'integer', (c) => c.references('document_folders.id').onDelete('restrict'))
    .addColumn('record_id', 'integer', (c) => c.references('health_records.id').onDelete('set null'))
    // 'attachment': uploaded to a record (goes with it); 'document': uploaded to the Document Center (stays).
    .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('attachment', 'document')`))
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('documents_patient').on('documents').columns(['patient_id', 'folder_id']).execute();
  await db.schema.createIndex('documents_record').on('documents').column('record_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('documents').execute();
  await db.schema.dropTable('document_folders').execute();
  await db.schema.dropTable('health_record_versions').execute();
  await db.schema.dropTable('health_records').execute();
  await sql`drop trigger users_create_patient on users`.execute(db);
  await sql`drop function users_create_patient()`.execute(db);
  await db.schema.dropTable('patients').execute();
}
