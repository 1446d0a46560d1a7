import { sql, type AliasedRawBuilder } from 'kysely';
import type { Db } from '../../db/client';
import { runNamed } from '../../db/prepared';
import type { OrgScope } from '../../db/scope';

/** A patient as the app handles it: an account's own names and date of birth, or the patient's own when it has no account. */
export interface PatientRow {
  id: number;
  org_id: number;
  user_id: number | null;
  first_name: string;
  last_name: string;
  dob: string | null;
  gender: string | null;
  /** The account's time zone (IANA, its settings' timeZone); null for a patient without an account or an account without one. */
  time_zone: string | null;
  /** Moves on with every change of the patient's records and documents (see migration 0009). */
  data_version: string;
}

/**
 * The columns of a PatientRow, from a patient `p` and its account `u` (left-joined): an
 * account's names and date of birth win over the patient's own. `prefix` names them apart when
 * they ride along with another row (the session's user carries its own patient).
 */
export function patientColumns(p: string, u: string, prefix = ''): Array<AliasedRawBuilder<unknown, string>> {
  const col = (name: string) => sql.ref(`${p}.${name}`);
  const acc = (name: string) => sql.ref(`${u}.${name}`);
  return [
    sql`${col('id')}`.as(`${prefix}id`),
    sql`${col('org_id')}`.as(`${prefix}org_id`),
    sql`${col('user_id')}`.as(`${prefix}user_id`),
    sql`coalesce(${acc('first_name')}, ${col('first_name')}, '')`.as(`${prefix}first_name`),
    sql`coalesce(${acc('last_name')}, ${col('last_name')}, '')`.as(`${prefix}last_name`),
    sql`to_char(coalesce(${acc('dob')}, ${col('dob')}), 'YYYY-MM-DD')`.as(`${prefix}dob`),
    sql`coalesce(${acc('gender')}, ${col('gender')})`.as(`${prefix}gender`),
    sql`${acc('settings')}->>'timeZone'`.as(`${prefix}time_zone`),
    sql`${col('data_version')}::text`.as(`${prefix}data_version`),
  ];
}

export interface ActiveGrantRow {
  id: number;
  patient_id: number;
  grantee_user_id: number;
  status: 'active';
  access: 'full' | 'read-only';
  categories: string[] | null;
  kind: 'invitation' | 'dependant';
}

export interface GrantedPatientRow extends PatientRow {
  grant_access: 'full' | 'read-only';
  grant_categories: string[] | null;
  grant_kind: 'invitation' | 'dependant';
}

/** The patients of one organisation. */
export class PatientsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private select() {
    return this.db
      .selectFrom('patients as p')
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .select(patientColumns('p', 'u'))
      .$castTo<PatientRow>()
      .where('p.org_id', '=', this.scope.orgId);
  }

  findById(id: number): Promise<PatientRow | undefined> {
    return runNamed(this.db, this.select().where('p.id', '=', id)).then(([row]) => row);
  }

  /** The live care-network grant of a patient to a user, if any (patients.policy.ts decides what it is worth). */
  activeGrant(patientId: number, userId: number): Promise<ActiveGrantRow | undefined> {
    return runNamed(
      this.db,
      this.db
        .selectFrom('patient_grants')
        .select(['id', 'patient_id', 'grantee_user_id', 'status', 'access', 'categories', 'kind'])
        .where('org_id', '=', this.scope.orgId)
        .where('patient_id', '=', patientId)
        .where('grantee_user_id', '=', userId)
        .where('status', '=', 'active'),
    ).then(([row]) => row as ActiveGrantRow | undefined);
  }

  /** The patients a user was let into (active grants), with the grant; names as for any patient. */
  granted(userId: number): Promise<GrantedPatientRow[]> {
    return this.db
      .selectFrom('patient_grants as g')
      .innerJoin('patients as p', 'p.id', 'g.patient_id')
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .select(patientColumns('p', 'u'))
      .select(['g.access as grant_access', 'g.categories as grant_categories', 'g.kind as grant_kind'])
      .where('g.org_id', '=', this.scope.orgId)
      .where('p.org_id', '=', this.scope.orgId)
      .where('g.grantee_user_id', '=', userId)
      .where('g.status', '=', 'active')
      .orderBy('g.created_at')
      .orderBy('g.id')
      .$castTo<GrantedPatientRow>()
      .execute();
  }

  /**
   * The patient of a provider's own appointment (booked) whose video visit has started (admitted)
   * and which ended no earlier than `endedSince`: what PatientsService.openVisitNote opens.
   */
  ofStartedVisit(appointmentId: number, providerUserId: number, endedSince: Date): Promise<PatientRow | undefined> {
    return this.db
      .selectFrom('appointments as a')
      .innerJoin('visits as v', 'v.appointment_id', 'a.id')
      .innerJoin('patients as p', 'p.id', 'a.patient_id')
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .select(patientColumns('p', 'u'))
      .where('a.org_id', '=', this.scope.orgId)
      .where('p.org_id', '=', this.scope.orgId)
      .where('v.org_id', '=', this.scope.orgId)
      .where('a.id', '=', appointmentId)
      .where('a.provider_id', '=', providerUserId)
      .where('a.status', '=', 'booked')
      .where('v.admitted_at', 'is not', null)
      .where('a.end_time', '>=', endedSince)
      .$castTo<PatientRow>()
      .executeTakeFirst();
  }

  /** The patient an account is (every account is one). */
  findByUser(userId: number): Promise<PatientRow | undefined> {
    return runNamed(this.db, this.select().where('p.user_id', '=', userId)).then(([row]) => row);
  }
}
