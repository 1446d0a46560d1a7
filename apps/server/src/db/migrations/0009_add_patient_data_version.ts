import { sql, type Kysely } from 'kysely';

/**
 * - `patients.data_version`: bumped by the database itself whenever one of the patient's health
 *   records or documents is added, changed or removed, whatever wrote it. A reader who has this
 *   number (it comes with the session, or with the patient) knows whether an answer computed
 *   earlier is still the patient's data: answers are cached under it, and a write anywhere, by
 *   any process, moves every reader on to a new number in the same commit as the data.
 * - The list index carries the organisation and the private flag, so a category's count is an
 *   index-only scan and a page is filtered before the table is read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table patients add column data_version bigint not null default 0`.execute(db);
  await sql`
    create function patients_bump_data_version() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        update patients set data_version = data_version + 1 where id = old.patient_id;
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.patient_id is distinct from old.patient_id) then
        update patients set data_version = data_version + 1 where id = new.patient_id;
      end if;
      return null;
    end $$`.execute(db);
  for (const table of ['health_records', 'documents']) {
    // Deferred to the commit: the patient's row is locked for the commit alone, not for the whole
    // transaction, so concurrent writes for one patient queue only briefly.
    await sql`create constraint trigger ${sql.raw(`${table}_bump_data_version`)} after insert or update or delete on ${sql.table(table)}
      deferrable initially deferred for each row execute function patients_bump_data_version()`.execute(db);
  }

  await sql`drop index health_records_list`.execute(db);
  await sql`create index health_records_list on health_records (patient_id, category, sort_date desc nulls last, id desc) include (org_id, private)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index health_records_list`.execute(db);
  await sql`create index health_records_list on health_records (patient_id, category, sort_date desc nulls last, id desc)`.execute(db);
  for (const table of ['health_records', 'documents']) await sql`drop trigger ${sql.raw(`${table}_bump_data_version`)} on ${sql.table(table)}`.execute(db);
  await sql`drop function patients_bump_data_version()`.execute(db);
  await sql`alter table patients drop column data_version`.execute(db);
}
