import type { ShareKind, ShareMethod } from '@healthbook/shared/sharing';
import { ApiError } from '../../lib/api-client';
import { applyServerErrors } from '../../lib/form-errors';
import { paths } from '../../lib/paths';

/**
 * What a failed call of the recipient's pages means:
 * - expired: 404 (unknown, malformed: never says whether it existed) or 410 expired;
 * - revoked: 410 revoked;
 * - locked: 410 locked (five wrong codes or passcodes);
 * - session: 401, the verified session is missing or over (verify again);
 * - throttled: 429 (too many requests, or codes asked for too often);
 * - rejected: another 4xx (a wrong code: 400 {code: ["… N attempts left"]});
 * - failed: no answer, or a 5xx.
 */
export type ShareFailure = 'expired' | 'revoked' | 'locked' | 'session' | 'throttled' | 'rejected' | 'failed';

const reasonOf = (data: unknown): unknown => (data && typeof data === 'object' && 'reason' in data ? (data as { reason: unknown }).reason : undefined);

export function shareFailure(error: unknown): ShareFailure {
  if (!(error instanceof ApiError)) return 'failed';
  switch (error.status) {
    case 404:
      return 'expired';
    case 410: {
      const reason = reasonOf(error.data);
      return reason === 'revoked' ? 'revoked' : reason === 'locked' ? 'locked' : 'expired';
    }
    case 401:
      return 'session';
    case 429:
      return 'throttled';
    default:
      return error.status >= 400 && error.status < 500 ? 'rejected' : 'failed';
  }
}

/** The page a failure leads to (revoked or expired), or null when the page itself shows it. */
export function failurePage(failure: ShareFailure, clientId: string, method: ShareMethod): string | null {
  if (failure === 'expired') return paths.shareExpired(clientId);
  if (failure === 'revoked') return paths.shareRevoked(clientId, method);
  return null;
}

/** The server's own words of a failure ({detail} or {code: [...]}) or, without any, `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  return applyServerErrors(error, { fallback }) ?? fallback;
}

/**
 * Where a failed call of the content pages (content, PDF, files) leads: the check again when the
 * session is over, an ended page when the share is, or nowhere (the page says what failed). A 404
 * there is a file no longer shared, not an unknown address.
 */
export function contentFailureTarget(error: unknown, clientId: string, share: { kind: ShareKind; method: ShareMethod }): { to: string; verifyAgain: boolean } | null {
  if (error instanceof ApiError && error.status === 404) return null;
  const failure = shareFailure(error);
  if (failure === 'session' || failure === 'locked') return { to: paths.shareVerification(clientId, share.kind, share.method), verifyAgain: true };
  const page = failurePage(failure, clientId, share.method);
  return page ? { to: page, verifyAgain: false } : null;
}
