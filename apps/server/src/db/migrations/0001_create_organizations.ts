import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('org_name', 'text', (c) => c.notNull())
    .addColumn('org_short_name', 'text', (c) => c.notNull())
    .addColumn('primary_color', 'text', (c) => c.check(sql`primary_color ~ '^#[0-9a-fA-F]{6}$'`))
    .addColumn('logo_key', 'text')
    .addColumn('logo_content_type', 'text')
    .addColumn('favicon_key', 'text')
    .addColumn('favicon_content_type', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('organizations_name_lower', sql`name = lower(name)`)
    .execute();
  await db.schema.createIndex('organizations_name_key').unique().on('organizations').column('name').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organizations').execute();
}
