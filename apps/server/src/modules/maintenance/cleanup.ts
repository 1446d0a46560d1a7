import type { Db } from '../../db/client';
import { SessionsRepository } from '../auth/sessions.repository';
import { AppleHealthJobRepository } from '../fhir/apple-health/apple-health.repository';
import { AttemptLimiter } from '../limits/limits.service';
import { MfaRepository } from '../mfa/mfa.repository';
import { UserTokensRepository } from '../recovery/user-tokens.repository';
import { PublicSharesRepository } from '../sharing/shares.repository';

export interface CleanupResult {
  sessions: number;
  mfaCodes: number;
  userTokens: number;
  attemptCounters: number;
  shareSessions: number;
  appleHealthImports: number;
}

/**
 * Removes what can no longer be used: ended or expired sessions after a grace period (kept a
 * while for investigations; the audit log keeps the events for good), spent or expired
 * second-factor codes and e-mail tokens, attempt counters idle for a day, share recipients' sessions that ended, and Apple Health imports a day old.
 */
export async function cleanupExpired(db: Db, graceDays = 30): Promise<CleanupResult> {
  return {
    sessions: await new SessionsRepository(db).removeEndedBefore(graceDays),
    mfaCodes: await MfaRepository.removeSpentCodes(db),
    userTokens: await new UserTokensRepository(db).removeSpentBefore(graceDays),
    attemptCounters: await new AttemptLimiter(db).removeStale(),
    shareSessions: await new PublicSharesRepository(db).removeEndedSessions(),
    appleHealthImports: await new AppleHealthJobRepository(db).removeOld(),
  };
}
