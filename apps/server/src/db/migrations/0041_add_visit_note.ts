import { sql, type Kysely } from 'kysely';

/**
 * The note of a video visit (issue 29, item 4): the provider writes it after the call and it lands
 * in the patient's record as a medical visit (a health_records row of category medicalvisit, with
 * the provider's name). `note_record_id` is that record: at most one per visit, so a second note of
 * the same visit changes it instead of adding another.
 *
 * The record is the patient's like any other: if they delete it, the visit forgets it (on delete
 * set null) and a later note makes a new one. The erasure removes a patient's records before their
 * visits (erasure-plan.ts), which the same rule allows. The index serves that rule (a record's
 * deletion looks for the visit that keeps it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table visits add column note_record_id integer references health_records(id) on delete set null`.execute(db);
  await sql`create index visits_note_record on visits (note_record_id) where note_record_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index visits_note_record`.execute(db);
  await sql`alter table visits drop column note_record_id`.execute(db);
}
