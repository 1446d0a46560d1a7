import { sql, type Kysely } from 'kysely';

/**
 * The care network: who, besides the patient, may open a patient's record and how
 * (patients.policy.ts). One row per person let in:
 * - `kind = 'invitation'`: the patient invited a person by name and e-mail; `pending` until the
 *   invited account accepts with the single-use token (stored hashed), then `active`;
 * - `kind = 'dependant'`: the user who added a family member without an account manages it;
 *   `active` from the start.
 * `revoked` (removed by the patient, or left by the person) and `declined` rows stay, for the
 * record of who had access when. At most one live (pending or active) row per patient and
 * person, and per patient and invited address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table patient_grants (
      id serial primary key,
      org_id integer not null references organizations(id),
      patient_id integer not null references patients(id) on delete cascade,
      kind text not null default 'invitation' check (kind in ('invitation', 'dependant')),
      grantee_user_id integer references users(id) on delete cascade,
      invited_by integer references users(id) on delete set null,
      name text not null check (length(name) between 1 and 120),
      email text check (email is null or length(email) <= 254),
      access text not null check (access in ('full', 'read-only')),
      categories jsonb,
      status text not null default 'pending' check (status in ('pending', 'active', 'revoked', 'declined')),
      token_hash text unique,
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      accepted_at timestamptz,
      ended_at timestamptz,
      check (status <> 'active' or grantee_user_id is not null),
      check (kind <> 'invitation' or email is not null)
    )`.execute(db);
  await sql`create unique index patient_grants_live_grantee on patient_grants (patient_id, grantee_user_id) where status in ('pending', 'active') and grantee_user_id is not null`.execute(db);
  await sql`create unique index patient_grants_live_email on patient_grants (patient_id, lower(email)) where status in ('pending', 'active') and email is not null`.execute(db);
  await sql`create index patient_grants_grantee on patient_grants (grantee_user_id) where status = 'active'`.execute(db);
  await sql`create index patient_grants_patient on patient_grants (org_id, patient_id, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table patient_grants`.execute(db);
}
