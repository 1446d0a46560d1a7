import { GENDER_KEYS, type FamilyMember, type FamilyRelationship, type GenderKey } from '@healthbook/shared';
import type { FamilyMemberRow, OpenInvitationRow } from './family-members.repository';

const genderKey = (value: string | null): GenderKey | null => (GENDER_KEYS as readonly string[]).includes(value ?? '') ? (value as GenderKey) : null;

/** A family member as its manager sees it (no internal grant id, no invitation code). */
export function presentFamilyMember(row: FamilyMemberRow, invitation: OpenInvitationRow | undefined, now = new Date()): FamilyMember {
  const hasAccount = row.user_id !== null;
  const expires = invitation ? new Date(invitation.expires_at) : null;
  return {
    patient_id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    dob: row.dob,
    gender: genderKey(row.gender),
    relationship: row.relationship as FamilyRelationship,
    has_account: hasAccount,
    invited:
      !hasAccount && invitation && expires
        ? { email: invitation.email, status: expires > now ? 'pending' : 'expired', expires_at: expires.toISOString() }
        : null,
    created_at: new Date(row.created_at).toISOString(),
  };
}
