import type { Actor } from '../../context';
import type { PatientRow } from './patients.repository';

/**
 * What a user may do with a patient's record: the one decision every read and write of health
 * data goes through (records, attachments, documents; later the calendar, sharing, export).
 * - `owner`: the patient is the user (their own record): everything, private records included.
 * - `full` / `read-only`: someone the patient let in (the care network, a later issue): private
 *   records are never theirs to see.
 * - null: nothing; the patient is "not there" for them (404, never 403).
 * Organisation admins and super admins get nothing of a patient's record by their role.
 */
export type PatientAccess = 'owner' | 'full' | 'read-only';

/** A live care-network grant of the patient to the actor (patient_grants: active, not ended). */
export interface CareGrant {
  grantee_user_id: number | null;
  patient_id: number;
  status: string;
  access: 'full' | 'read-only';
}

export function patientAccess(
  actor: Pick<Actor, 'userId' | 'orgId'>,
  patient: Pick<PatientRow, 'id' | 'user_id' | 'org_id'>,
  grant?: CareGrant | null,
): PatientAccess | null {
  if (patient.org_id !== actor.orgId) return null;
  if (patient.user_id === actor.userId) return 'owner';
  // The care network: only an active grant of this very patient to this very user counts.
  if (grant && grant.status === 'active' && grant.patient_id === patient.id && grant.grantee_user_id === actor.userId) return grant.access;
  return null;
}

/**
 * Writing: the owner and those with full access. What each level reaches of the record, area by
 * area (private rows, chat, assessments, shares, category limits), is the one statement in
 * packages/shared patient-data.ts, which PatientsService.open applies and the web app reads.
 */
export const canWrite = (access: PatientAccess) => access === 'owner' || access === 'full';
