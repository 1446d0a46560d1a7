import { sql, type Kysely } from 'kysely';

/**
 * Where an imported health record came from (FHIR import, modules/fhir): `source_key` names the
 * resource it was made from — an identifier (`id:<system>|<value>`), the entry's full URL
 * (`url:<fullUrl>`) or a hash of its content (`sha256:<hex>`) — null for a record typed in.
 * One key per patient at most: importing the same bundle twice, even twice at once, adds its
 * records once (the second insert meets the index and does nothing).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table health_records add column source_key text`.execute(db);
  await sql`create unique index health_records_source_key on health_records (patient_id, source_key) where source_key is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index health_records_source_key`.execute(db);
  await sql`alter table health_records drop column source_key`.execute(db);
}
