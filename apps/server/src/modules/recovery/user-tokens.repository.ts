import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { UserTokensTable } from '../../db/schema';
import { randomToken, sha256 } from '../../lib/crypto';

export type TokenPurpose = UserTokensTable['purpose'];

/**
 * One-time tokens sent by e-mail (confirmation and password-reset links): 256 random bits,
 * only their SHA-256 is kept; single use through conditional updates.
 */
export class UserTokensRepository {
  constructor(private readonly db: Db) {}

  /** Issues a token; with `replace`, the user's earlier unused tokens of that purpose stop working. Answers the clear token. */
  async issue(userId: number, purpose: TokenPurpose, ttlSeconds: number, opts: { replace?: boolean } = {}): Promise<string> {
    if (opts.replace) await this.invalidate(userId, purpose);
    const token = randomToken(32);
    await this.db
      .insertInto('user_tokens')
      .values({ user_id: userId, purpose, token_hash: sha256(token), expires_at: new Date(Date.now() + ttlSeconds * 1000) })
      .execute();
    return token;
  }

  /** Whether a live, unused token exists (read only; a cheap check before expensive work). */
  async isLive(userId: number, purpose: TokenPurpose, token: string): Promise<boolean> {
    const row = await this.live(userId, purpose, token).select('id').executeTakeFirst();
    return row !== undefined;
  }

  /** Marks a live, unused token used; answers false when there is none (unknown, expired, used, or lost a race). */
  async consume(userId: number, purpose: TokenPurpose, token: string): Promise<boolean> {
    const row = await this.db
      .updateTable('user_tokens')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
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

  private live(userId: number, purpose: TokenPurpose, token: string) {
    return this.db
      .selectFrom('user_tokens')
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`);
  }
}
