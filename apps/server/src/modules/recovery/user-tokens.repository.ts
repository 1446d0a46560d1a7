import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { UserTokensTable } from '../../db/schema';
import type { OrgScope } from '../../db/scope';
import { randomToken, sha256 } from '../../lib/crypto';

export type TokenPurpose = UserTokensTable['purpose'];

/** What a live token proves: whose it is (organisation and user) and, for an e-mail change, the new address. */
export interface TokenHolder {
  org_id: number;
  user_id: number;
  new_email: string | null;
}

/**
 * One-time tokens sent by e-mail (confirmation, password reset and e-mail change links): 256
 * random bits, only their SHA-256 is kept; single use through conditional updates. Issuing is
 * scoped to the user's organisation; a token presented back is itself the capability (with the
 * user id of the link), so finding it needs no organisation.
 */
export class UserTokensRepository {
  constructor(private readonly db: Db) {}

  /** Issues a token; with `replace`, the user's earlier unused tokens of that purpose stop working. Answers the clear token. */
  async issue(
    scope: OrgScope,
    userId: number,
    purpose: TokenPurpose,
    ttlSeconds: number,
    opts: { replace?: boolean; newEmail?: string } = {},
  ): Promise<string> {
    if (opts.replace) await this.invalidate(userId, purpose);
    const token = randomToken(32);
    await this.db
      .insertInto('user_tokens')
      .values({
        org_id: scope.orgId,
        user_id: userId,
        purpose,
        token_hash: sha256(token),
        new_email: opts.newEmail ?? null,
        expires_at: new Date(Date.now() + ttlSeconds * 1000),
      })
      .execute();
    return token;
  }

  /** The holder of a live, unused token (read only; a cheap check before expensive work). */
  findLive(userId: number, purpose: TokenPurpose, token: string): Promise<TokenHolder | undefined> {
    return this.db
      .selectFrom('user_tokens')
      .select(['org_id', 'user_id', 'new_email'])
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
  }

  /** Marks a live, unused token used and answers its holder; undefined when there is none (unknown, expired, used, or lost a race). */
  consume(userId: number, purpose: TokenPurpose, token: string): Promise<TokenHolder | undefined> {
    return this.db
      .updateTable('user_tokens')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['org_id', 'user_id', 'new_email'])
      .executeTakeFirst();
  }

  /**
   * A token of this user and purpose whatever its state, to say why a link no longer works
   * (expired, used). Never a proof by itself: acting on a token goes through consume().
   */
  findAny(userId: number, purpose: TokenPurpose, token: string): Promise<(TokenHolder & { used: boolean; expired: boolean }) | undefined> {
    return this.db
      .selectFrom('user_tokens')
      .select(['org_id', 'user_id', 'new_email'])
      .select(sql<boolean>`used_at is not null`.as('used'))
      .select(sql<boolean>`expires_at <= now()`.as('expired'))
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('token_hash', '=', sha256(token))
      .executeTakeFirst();
  }

  /** The user's unused tokens of that purpose end now: a link replaced by a newer one reads as expired, not used. */
  async expireUnused(userId: number, purpose: TokenPurpose): Promise<void> {
    await this.db
      .updateTable('user_tokens')
      .set({ expires_at: sql`least(expires_at, now())` })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .execute();
  }

  async invalidate(userId: number, purpose: TokenPurpose): Promise<void> {
    await this.db
      .updateTable('user_tokens')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }

  /** Housekeeping: tokens spent or expired before the cutoff. */
  async removeSpentBefore(graceDays: number): Promise<number> {
    const cutoff = sql<Date>`now() - make_interval(days => ${graceDays})`;
    const result = await this.db
      .deleteFrom('user_tokens')
      .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('used_at', '<', cutoff)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
