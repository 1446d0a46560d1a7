import { LOGIN_FAILURES_MAX, LOGIN_LOCKOUT_S, MFA_MAX_ATTEMPTS, SHARE_CODE_SENDS_MAX } from '@healthbook/shared';
import type { Db } from '../../db/client';
import { LimitsRepository } from './limits.repository';
import { servicePlugin } from '../../lib/service-plugin';

/**
 * Every limit of the kind "N tries per thing, then wait": declared once, counted atomically.
 * A try is counted BEFORE the expensive or secret check it guards, so that a thousand parallel
 * requests get exactly `max` checks; a success may clear the counter.
 */
export const LIMITS = {
  /** Sign-in per account (org:email), whatever the client address. */
  login: { max: LOGIN_FAILURES_MAX, windowS: LOGIN_LOCKOUT_S },
  /** Second-factor codes per pending sign-in (session id); then the sign-in ends. */
  mfaSignIn: { max: MFA_MAX_ATTEMPTS, windowS: 10 * 60 },
  /** Codes while enrolling a second factor, per user. */
  mfaEnrol: { max: MFA_MAX_ATTEMPTS, windowS: 15 * 60 },
  /** Asking again for the password or a code before a sensitive change, per user. */
  reauth: { max: 5, windowS: 15 * 60 },
  /** Re-authentication codes e-mailed, per user. */
  reauthCode: { max: 3, windowS: 15 * 60 },
  /** Password-reset mails per address (org:email), known or not. */
  resetRequest: { max: 3, windowS: 60 * 60 },
  /** Access-code mails per person (org:names:date of birth), matched or not. */
  codeRetrieval: { max: 3, windowS: 60 * 60 },
  /** E-mail change links per user. */
  emailChange: { max: 3, windowS: 60 * 60 },
  /** Codes e-mailed to a share's recipient, per share. */
  shareCode: { max: SHARE_CODE_SENDS_MAX, windowS: 15 * 60 },
  /** Messages to the organisation's support from the help area, per user. */
  helpContact: { max: 3, windowS: 60 * 60 },
  /** Care-network invitations sent again, per invitation. */
  careResend: { max: 3, windowS: 60 * 60 },
  /** Sign-up codes asked for with a care-network invitation, per invitation. */
  careSignupCode: { max: 5, windowS: 60 * 60 },
} as const satisfies Record<string, { max: number; windowS: number }>;

export type LimitName = keyof typeof LIMITS;

export type Attempt =
  | { allowed: true; /** Tries used in this window, this one included. */ used: number; /** This was the last one allowed. */ last: boolean }
  | { allowed: false; /** Seconds until the window ends. */ retryAfterS: number };

export class AttemptLimiter {
  private readonly repo: LimitsRepository;

  constructor(db: Db) {
    this.repo = new LimitsRepository(db);
  }

  /** Counts a try of `name` for `key`; answers whether it may go ahead. */
  async take(name: LimitName, key: string): Promise<Attempt> {
    const { max, windowS } = LIMITS[name];
    const state = await this.repo.increment(name, key, max, windowS);
    if (state.counted) return { allowed: true, used: state.count, last: state.count === max };
    const endsAt = state.window_started_at.getTime() + windowS * 1000;
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)) };
  }

  /** Forgets the tries of `key` (after a success). */
  clear(name: LimitName, key: string): Promise<void> {
    return this.repo.clear(name, key);
  }

  /** Housekeeping: counters idle for a day. */
  removeStale(): Promise<number> {
    return this.repo.removeOlderThan(24 * 60 * 60);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    limiter: AttemptLimiter;
  }
}

export default servicePlugin('limiter', ['db'], (app) => new AttemptLimiter(app.db));
