import { sql, type Kysely } from 'kysely';

/**
 * Insurance cards (feature `insurance`): a patient's cards, each with an optional photo of its
 * front and back kept through the storage interface (the key and the type the bytes decided).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table insurance_cards (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      insurer text not null check (length(insurer) between 1 and 120),
      plan text check (length(plan) <= 120),
      member_number text not null check (length(member_number) between 1 and 64),
      group_number text check (length(group_number) <= 64),
      holder_name text check (length(holder_name) <= 120),
      holder_relationship text not null default 'self' check (holder_relationship in ('self', 'spouse', 'parent', 'other')),
      valid_from date,
      valid_to date,
      front_key text,
      front_content_type text,
      back_key text,
      back_content_type text,
      notes text check (length(notes) <= 2000),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      created_by integer references users(id) on delete set null,
      check (valid_from is null or valid_to is null or valid_to >= valid_from),
      check ((front_key is null) = (front_content_type is null)),
      check ((back_key is null) = (back_content_type is null))
    )`.execute(db);
  await sql`create index insurance_cards_patient on insurance_cards (org_id, patient_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table insurance_cards`.execute(db);
}
