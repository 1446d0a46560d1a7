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

/** Writing: the owner and those with full access. */
export const canWrite = (access: PatientAccess) => access === 'owner' || access === 'full';

/** A private ("for my eyes only") record is seen by its owner only, whatever else is allowed. */
export const canSeePrivate = (access: PatientAccess) => access === 'owner';

/**
 * Chatting with a provider or peer coach: the owner and those with full access (then shown as
 * acting for the patient). Read-only individuals cannot communicate with providers (the Terms).
 */
export const canChat = (access: PatientAccess) => access === 'owner' || access === 'full';

/**
 * Mental-health assessments (survey results): the owner and those with full access (a parent
 * managing a child's record). Read-only individuals do not see them, and organisation admins
 * never do (they have no access to a patient at all).
 */
export const canSeeAssessments = (access: PatientAccess) => access === 'owner' || access === 'full';

/**
 * A grant limited to some record categories (`categories`, null for every one) lets in the
 * records of those categories and what hangs on them (their attachments), nothing else of the
 * record: no record of another category, to read or to write.
 */
export const allowsCategory = (categories: readonly string[] | null, category: string) => categories === null || categories.includes(category);

/**
 * Mental-health assessments for a grant: its access allows them (canSeeAssessments) and it is not
 * limited to some record categories (assessments are none of them).
 */
export const canSeeAssessmentsOf = (grant: { access: PatientAccess; categories: readonly string[] | null }) => canSeeAssessments(grant.access) && grant.categories === null;
