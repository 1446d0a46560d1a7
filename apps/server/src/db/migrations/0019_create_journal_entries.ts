import { sql, type Kysely } from 'kysely';

/**
 * The journal (issue 13, item 4): a patient's dated entries with a title, text, a mood (1-5)
 * and tags. Private by default: a private entry is seen by its owner alone; `private = false`
 * shares it with the care network (through the patients policy, like records).
 * `search_text` is the folded title, text and tags (searchKey), what `?search=` matches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table journal_entries (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      entry_date date not null,
      title text not null check (char_length(title) between 1 and 200),
      text text not null default '' check (char_length(text) <= 20000),
      mood smallint check (mood between 1 and 5),
      tags text[] not null default '{}' check (cardinality(tags) <= 10),
      private boolean not null default true,
      search_text text not null default '',
      created_by integer references users(id) on delete set null,
      updated_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index journal_entries_list on journal_entries (patient_id, entry_date desc, id desc) include (org_id, private)`.execute(db);
  await sql`create index journal_entries_tags on journal_entries using gin (tags)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('journal_entries').execute();
}
