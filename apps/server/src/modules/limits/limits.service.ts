import { LOGIN_FAILURES_MAX, LOGIN_LOCKOUT_S, MFA_MAX_ATTEMPTS, SHARE_CODE_SENDS_MAX, SHARES_PER_DAY_MAX, SHARES_PER_HOUR_MAX } from '@healthbook/shared';
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
  /** Invitations giving a family member an account of their own, per managing user (each may tell whether an address has an account). */
  familyInvite: { max: 5, windowS: 60 * 60 },
  /** Codes e-mailed to a share's recipient, per share. */
  shareCode: { max: SHARE_CODE_SENDS_MAX, windowS: 15 * 60 },
  /** Shares created or sent to a new address, per patient: an hour's worth, */
  sharesHour: { max: SHARES_PER_HOUR_MAX, windowS: 60 * 60 },
  /** and a day's. */
  sharesDay: { max: SHARES_PER_DAY_MAX, windowS: 24 * 60 * 60 },
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

  /** `raised`: limits lifted to at least that many tries (tests that share often; never in production). */
  constructor(
    db: Db,
    private readonly raised: Partial<Record<LimitName, number>> = {},
  ) {
    this.repo = new LimitsRepository(db);
  }

  /** Counts a try of `name` for `key`; answers whether it may go ahead. */
  async take(name: LimitName, key: string): Promise<Attempt> {
    const { windowS } = LIMITS[name];
    const max = Math.max(LIMITS[name].max, this.raised[name] ?? 0);
    const state = await this.repo.increment(name, key, max, windowS);
    if (state.counted) return { allowed: true, used: state.count, last: state.count === max };
    const endsAt = state.window_started_at.getTime() + windowS * 1000;
    return { allowed: false, retryAfterS: Math.max(1, Math.ceil((endsAt - Date.now()) / 1000)) };
  }

  /**
   * Counts a try against each limit in turn (the shortest window first); answers the first
   * refusal, with its name, or allowed. A try refused by a later limit stays counted by the
   * earlier ones: the later window is full anyway.
   */
  async takeEach(names: readonly LimitName[], key: string): Promise<{ allowed: true } | { allowed: false; name: LimitName; retryAfterS: number }> {
    for (const name of names) {
      const attempt = await this.take(name, key);
      if (!attempt.allowed) return { allowed: false, name, retryAfterS: attempt.retryAfterS };
    }
    return { allowed: true };
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

export default servicePlugin<'limiter', { raised?: Partial<Record<LimitName, number>> }>('limiter', ['db'], (app, opts) => new AttemptLimiter(app.db, opts.raised));
