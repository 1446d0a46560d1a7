import { ApiError } from './api-client';
import type { UserDto } from '@healthbook/shared/contracts/users';

/**
 * What a protected change carries to show it is the account holder (adding or removing a second
 * factor, changing the e-mail address): the password, or six digits from a second factor the
 * user already has. Missing or wrong: 400 {"password": [...]} (or {"code": [...]}); too many
 * wrong tries: 429 {detail}.
 */
export type IdentityProof = { password: string } | { code: string };

/**
 * A code can stand in for the password when the user has an authenticator app: it shows a code
 * at any time. (E-mailed codes are sent only at sign-in, so an e-mail factor alone offers none.)
 */
export function canProveWithCode(user: Pick<UserDto, 'mfa_devices'>): boolean {
  return user.mfa_devices.some((device) => device.device_type === 'google');
}

/** The server refused the proof itself (missing or wrong password or code, or too many tries): the dialog asking for it says so. */
export function isProofError(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 429) return true;
  const data = error.data;
  return error.status === 400 && typeof data === 'object' && data !== null && ('password' in data || 'code' in data);
}
