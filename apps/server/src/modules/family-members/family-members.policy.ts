import type { PatientScope } from '../patients/patient-scope';

/**
 * Who manages a family member: the user whose grant to that patient was made by adding it as a
 * family member — the very grant `patients.grant` found for this request (so a revoked or
 * changed grant holds at once). Managing covers changing, removing and giving an account only
 * while the family member has none: once they have, the record is theirs (409 for the manager).
 */
export function managesFamilyMember(grant: Pick<PatientScope, 'isOwner' | 'grantId'>, member: { grant_id: number }): boolean {
  return !grant.isOwner && grant.grantId !== null && grant.grantId === member.grant_id;
}

/** The record still belongs to the manager's care: it has no account of its own. */
export const isManagedRecord = (member: { user_id: number | null }) => member.user_id === null;
