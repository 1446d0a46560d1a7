import type { Invitation, InvitationDetails, Language } from '@healthbook/shared';
import { genderOption } from '../users/users.presenter';
import type { InvitationRow } from './invitations.repository';

export function invitationStatus(row: Pick<InvitationRow, 'used_at' | 'expires_at'>, now = new Date()): Invitation['status'] {
  if (row.used_at) return 'used';
  return new Date(row.expires_at) <= now ? 'expired' : 'pending';
}

/** An invitation for administrators. The code only when just issued (it is never stored in clear). */
export function presentInvitation(row: InvitationRow, lang: Language, signupCode?: string): Invitation {
  return {
    id: row.id,
    org_id: row.org_id,
    first_name: row.first_name,
    last_name: row.last_name,
    dob: row.dob,
    gender: genderOption(row.gender, lang)!,
    email: row.email,
    ...(signupCode ? { signup_code: signupCode } : {}),
    status: invitationStatus(row),
    expires_at: new Date(row.expires_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** What the sign-up page is pre-filled with, for the person holding the code. */
export function presentInvitationDetails(row: InvitationRow, lang: Language, signupCode: string): InvitationDetails {
  return {
    user_id: null,
    first_name: row.first_name,
    last_name: row.last_name,
    dob: row.dob,
    gender: genderOption(row.gender, lang)!,
    email: row.email,
    signup_code: signupCode,
    org_id: row.org_id,
  };
}

/** A date as a reader of that language writes it (e.g. "March 5, 2026", "5 Μαρτίου 2026"). */
export function formatMailDate(date: Date, lang: Language): string {
  return new Intl.DateTimeFormat(lang === 'el' ? 'el-GR' : 'en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}
