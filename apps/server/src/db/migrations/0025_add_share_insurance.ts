import { sql, type Kysely } from 'kysely';

/** A share of records may include the patient's insurance cards (their details, read live; never the photos). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table shares add column include_insurance boolean not null default false`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table shares drop column include_insurance`.execute(db);
}
