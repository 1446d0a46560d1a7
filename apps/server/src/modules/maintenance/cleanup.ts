import { sql } from 'kysely';
import type { Db } from '../../db/client';

export interface CleanupResult {
  sessions: number;
  mfaCodes: number;
  userTokens: number;
}

/**
 * Removes what can no longer be used: ended or expired sessions after a grace period (kept a
 * while for investigations; the audit log keeps the events for good), spent or expired
 * second-factor codes and e-mail tokens.
 */
export async function cleanupExpired(db: Db, graceDays = 30): Promise<CleanupResult> {
  const cutoff = sql<Date>`now() - make_interval(days => ${graceDays})`;
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
    .executeTakeFirst();
  const mfaCodes = await db
    .deleteFrom('mfa_codes')
    .where((eb) => eb.or([eb('expires_at', '<', sql<Date>`now()`), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  const userTokens = await db
    .deleteFrom('user_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('used_at', '<', cutoff)]))
    .executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    mfaCodes: Number(mfaCodes.numDeletedRows),
    userTokens: Number(userTokens.numDeletedRows),
  };
}
