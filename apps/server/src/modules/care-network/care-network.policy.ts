import type { CareGrantRow } from './care-network.repository';

/**
 * The care network's own rules, pure: what state an invitation is in, and whether the signed-in
 * account may accept one. Whether a grant lets a person read or write a record is not decided
 * here but in patients.policy.ts (the one policy every route goes through).
 */

export type MemberStatus = 'pending' | 'active' | 'expired';

/** How the patient sees a live row: an invitation not accepted in time is "expired" (it stays until renewed or removed). */
export function memberStatus(row: Pick<CareGrantRow, 'status' | 'expires_at'>, now = new Date()): MemberStatus {
  if (row.status === 'active') return 'active';
  return row.expires_at && new Date(row.expires_at).getTime() <= now.getTime() ? 'expired' : 'pending';
}

/** Why an account may not accept (or decline) an invitation, as an error to answer; null when it may. Checked in this order. */
export type AcceptRefusal = { status: 404; key: 'errors:careInvitationNotFound' } | { status: 400; key: 'errors:careInvitationOwnRecord' } | { status: 403; key: 'errors:careInvitationOtherAccount' } | { status: 410; key: 'errors:careInvitationExpired' };

export function acceptRefusal(
  invitation: Pick<CareGrantRow, 'status' | 'expires_at' | 'email' | 'org_id'> | undefined,
  patientUserId: number | null | undefined,
  account: { userId: number; orgId: number; email: string },
  opts: { now?: Date; allowExpired?: boolean } = {},
): AcceptRefusal | null {
  if (!invitation || invitation.status !== 'pending' || invitation.org_id !== account.orgId) return { status: 404, key: 'errors:careInvitationNotFound' };
  if (patientUserId === account.userId) return { status: 400, key: 'errors:careInvitationOwnRecord' };
  if (!invitation.email || invitation.email.trim().toLowerCase() !== account.email.trim().toLowerCase()) return { status: 403, key: 'errors:careInvitationOtherAccount' };
  if (!opts.allowExpired && memberStatus(invitation, opts.now) === 'expired') return { status: 410, key: 'errors:careInvitationExpired' };
  return null;
}

/** The page an invitation's e-mail opens; the token rides in the fragment, which no server sees or logs. */
export function invitationLink(publicUrl: string, clientId: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/${encodeURIComponent(clientId)}/caring-person-info#token=${encodeURIComponent(token)}`;
}
