import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';
import { patientColumns, type PatientRow } from '../patients/patients.repository';

/** A family member as its manager sees it: the patient, the grant that lets the manager in, the open invitation to an account. */
export interface FamilyMemberRow extends PatientRow {
  grant_id: number;
  relationship: string;
  created_at: Date;
}

export interface OpenInvitationRow {
  patient_id: number;
  email: string;
  expires_at: Date;
}

export interface NewFamilyMember {
  first_name: string;
  last_name: string;
  dob: string;
  gender: string;
  relationship: string;
}

/**
 * The family members (patients without an account of their own at first) a user manages: the
 * active grants they hold that were made by adding a family member (`relationship` set). Built
 * for one organisation; every query filters by it.
 */
export class FamilyMembersRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private select(managerId: number) {
    return this.db
      .selectFrom('patient_grants as g')
      .innerJoin('patients as p', 'p.id', 'g.patient_id')
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .select(patientColumns('p', 'u'))
      .select(['g.id as grant_id', 'g.relationship', 'g.created_at'])
      .where('g.org_id', '=', this.scope.orgId)
      .where('p.org_id', '=', this.scope.orgId)
      .where('g.grantee_user_id', '=', managerId)
      .where('g.status', '=', 'active')
      .where('g.relationship', 'is not', null)
      .$castTo<FamilyMemberRow>();
  }

  list(managerId: number): Promise<FamilyMemberRow[]> {
    return this.select(managerId).orderBy('g.created_at').orderBy('g.id').execute();
  }

  find(managerId: number, patientId: number): Promise<FamilyMemberRow | undefined> {
    return this.select(managerId).where('p.id', '=', patientId).executeTakeFirst();
  }

  /** The newest unused invitation of each patient (to an account of their own). */
  async openInvitations(patientIds: readonly number[]): Promise<Map<number, OpenInvitationRow>> {
    if (patientIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('invitations')
      .select(['patient_id', 'email', 'expires_at'])
      .distinctOn('patient_id')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', 'in', [...patientIds])
      .where('used_at', 'is', null)
      .orderBy('patient_id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return new Map(rows.map((r) => [r.patient_id!, { patient_id: r.patient_id!, email: r.email, expires_at: r.expires_at }]));
  }

  /** Holds the manager's row until the transaction ends: their additions are counted one at a time. */
  async lockManager(managerId: number): Promise<void> {
    await this.db.selectFrom('users').select('id').where('org_id', '=', this.scope.orgId).where('id', '=', managerId).forUpdate().execute();
  }

  async countManaged(managerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('patient_grants')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('org_id', '=', this.scope.orgId)
      .where('grantee_user_id', '=', managerId)
      .where('status', '=', 'active')
      .where('relationship', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A new patient without an account, and the manager's grant to it (full access, active from the start). */
  async insert(managerId: number, values: NewFamilyMember): Promise<number> {
    const patient = await this.db
      .insertInto('patients')
      .values({ org_id: this.scope.orgId, user_id: null, first_name: values.first_name, last_name: values.last_name, dob: values.dob, gender: values.gender })
      .returning('id')
      .executeTakeFirstOrThrow();
    await this.db
      .insertInto('patient_grants')
      .values({
        org_id: this.scope.orgId,
        patient_id: patient.id,
        kind: 'dependant',
        grantee_user_id: managerId,
        invited_by: managerId,
        name: grantName(values.first_name, values.last_name),
        email: null,
        access: 'full',
        status: 'active',
        accepted_at: sql<Date>`now()`,
        relationship: values.relationship,
        created_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
      })
      .execute();
    return patient.id;
  }

  /** Changes the patient's own names, date of birth and sex, while it has no account; answers whether it did. */
  async updatePatient(patientId: number, changes: Partial<Pick<NewFamilyMember, 'first_name' | 'last_name' | 'dob' | 'gender'>>): Promise<boolean> {
    if (Object.keys(changes).length === 0) return true;
    const row = await this.db
      .updateTable('patients')
      .set(changes)
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', patientId)
      .where('user_id', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async updateGrant(grantId: number, changes: { name?: string; relationship?: string }): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db
      .updateTable('patient_grants')
      .set({ ...changes, updated_at: sql<Date>`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', grantId)
      .execute();
  }

  /** Every stored file of a patient's data (documents and attachments, insurance photos, exports, chat files). */
  async storageKeys(patientId: number): Promise<string[]> {
    const { orgId } = this.scope;
    const rows = await sql<{ key: string }>`
      select storage_key as key from documents where org_id = ${orgId} and patient_id = ${patientId}
      union all select front_key from insurance_cards where org_id = ${orgId} and patient_id = ${patientId} and front_key is not null
      union all select back_key from insurance_cards where org_id = ${orgId} and patient_id = ${patientId} and back_key is not null
      union all select storage_key from exports where org_id = ${orgId} and patient_id = ${patientId}
      union all select m.file_key from chat_messages m join chat_conversations c on c.id = m.conversation_id
        where c.org_id = ${orgId} and c.patient_id = ${patientId} and m.file_key is not null`.execute(this.db);
    return rows.rows.map((r) => r.key);
  }

  /** Removes a patient without an account and, by the database's cascades, all its data; answers whether it did. */
  async deletePatient(patientId: number): Promise<boolean> {
    const row = await this.db
      .deleteFrom('patients')
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', patientId)
      .where('user_id', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Drops a patient's unused invitations but one (a new invitation replaces the earlier ones). */
  async removeOpenInvitations(patientId: number, keepId: number): Promise<void> {
    await this.db
      .deleteFrom('invitations')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', patientId)
      .where('used_at', 'is', null)
      .where('id', '<>', keepId)
      .execute();
  }
}

/** How the manager's grant names the family member (the grant's name is at most 120 characters). */
export const grantName = (firstName: string, lastName: string) => `${firstName} ${lastName}`.slice(0, 120);

/**
 * Sign-up with a family member's invitation: the new account becomes that patient. In the
 * registration's transaction: the empty patient the users trigger made for the account goes, the
 * family member's row gets the account, and the manager's grant carries the manager's address
 * (it is now a care-network grant the account holder controls). Answers false when the patient
 * is gone or already has an account (the registration is then rolled back).
 */
export async function attachAccount(trx: Db, scope: OrgScope, patientId: number, userId: number): Promise<false | { managers: AttachedManager[] }> {
  await trx.deleteFrom('patients').where('org_id', '=', scope.orgId).where('user_id', '=', userId).where('id', '<>', patientId).execute();
  const attached = await trx
    .updateTable('patients')
    .set({ user_id: userId })
    .where('org_id', '=', scope.orgId)
    .where('id', '=', patientId)
    .where('user_id', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!attached) return false;
  const managers = await sql<AttachedManager>`
    update patient_grants g set email = u.email, updated_at = now()
      from users u
     where u.id = g.grantee_user_id and g.org_id = ${scope.orgId} and g.patient_id = ${patientId}
       and g.kind = 'dependant' and g.status = 'active'
    returning u.email, u.first_name, u.settings`.execute(trx);
  return { managers: managers.rows };
}

/** Who managed a family member who now has an account (to tell them). */
export interface AttachedManager {
  email: string;
  first_name: string;
  settings: unknown;
}
