import type { Kysely } from 'kysely';

/**
 * An organisation can be deactivated by a super admin and reactivated: while deactivated_at is
 * set its members cannot sign in, their sessions are over, and its share links answer as
 * unavailable; its data is kept as it is. The change notifies every process's session cache
 * through the organisations trigger of migration 0010.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('deactivated_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('deactivated_at').execute();
}
