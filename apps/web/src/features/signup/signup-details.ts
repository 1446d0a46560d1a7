import type { InvitationDetails } from '@healthbook/shared/contracts/invitations';

/** The invitation behind a valid access code, kept for the tab's session so a reload keeps the sign-up page. */
const KEY = 'signupDetails';

export function isInvitationDetails(value: unknown): value is InvitationDetails {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const gender = v.gender as Record<string, unknown> | null | undefined;
  return (
    typeof v.first_name === 'string' &&
    typeof v.last_name === 'string' &&
    typeof v.dob === 'string' &&
    typeof v.signup_code === 'string' &&
    v.signup_code !== '' &&
    typeof gender === 'object' &&
    gender !== null &&
    typeof gender.key === 'string'
  );
}

export function saveSignupDetails(details: InvitationDetails): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(details));
  } catch {
    // Storage full or disabled: the router state still carries the details.
  }
}

export function loadSignupDetails(): InvitationDetails | null {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    return isInvitationDetails(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function clearSignupDetails(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
