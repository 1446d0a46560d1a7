import { sql, type Kysely } from 'kysely';

/**
 * Family members (dependants, issue 13 item 2): a patient without an account whose record the
 * user who added it manages (a `patient_grants` row of kind 'dependant', full access).
 * - `patient_grants.relationship`: who the family member is to the person who added them
 *   (child, parent, spouse, sibling, other). Set only on the grants made by adding a family
 *   member, and kept when the family member later gets an account of their own.
 * - `invitations.patient_id`: a sign-up invitation that gives an existing patient (a family
 *   member) its account: registering with its code attaches the new account to that patient
 *   instead of a fresh, empty one. Removing the patient removes its invitation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table patient_grants add column relationship text
      check (relationship is null or relationship in ('child', 'parent', 'spouse', 'sibling', 'other'))`.execute(db);
  await sql`create index patient_grants_family on patient_grants (org_id, grantee_user_id, created_at) where relationship is not null and status = 'active'`.execute(db);
  await sql`alter table invitations add column patient_id integer references patients(id) on delete cascade`.execute(db);
  await sql`create index invitations_patient on invitations (patient_id) where patient_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index invitations_patient`.execute(db);
  await sql`alter table invitations drop column patient_id`.execute(db);
  await sql`drop index patient_grants_family`.execute(db);
  await sql`alter table patient_grants drop column relationship`.execute(db);
}
