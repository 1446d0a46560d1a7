import { sql, type Kysely } from 'kysely';

/**
 * A provider's speciality in Greek beside the one they already give (in English, or in the only
 * language they write it in): each reader sees the wording in their language when there is one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table providers add column speciality_el text`.execute(db);
  await sql`create index providers_org_speciality_el on providers (org_id, lower(speciality_el))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index providers_org_speciality_el`.execute(db);
  await sql`alter table providers drop column speciality_el`.execute(db);
}
