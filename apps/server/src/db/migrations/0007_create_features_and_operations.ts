import { sql, type Kysely } from 'kysely';

/**
 * The features catalogue (its rows are synced from packages/shared/src/features.ts at start),
 * each organisation's status for them, the operations members perform (one row per navigation
 * to a feature, for the operations dashboard), and an organisation's video channel.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('features')
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('feature_route', 'text')
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('icon_name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('organization_features')
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('feature_id', 'integer', (c) => c.notNull().references('features.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'inactive', 'disabled')`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addPrimaryKeyConstraint('organization_features_pkey', ['org_id', 'feature_id'])
    .execute();

  await db.schema
    .createTable('operations')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('org_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('feature_id', 'integer', (c) => c.notNull().references('features.id').onDelete('cascade'))
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('operations_org_at').on('operations').columns(['org_id', 'at']).execute();

  await db.schema.alterTable('organizations').addColumn('video_channel_url', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('video_channel_url').execute();
  await db.schema.dropTable('operations').execute();
  await db.schema.dropTable('organization_features').execute();
  await db.schema.dropTable('features').execute();
}
