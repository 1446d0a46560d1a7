import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { REFRESH_TOKEN_TTL_S, type AccessLevel } from '@healthbook/shared';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';

/**
 * Sessions (one per sign-in). A session is found by its id, a random UUID the server issued
 * and signed into the tokens: that id is the capability, so lookups by id need no organisation.
 * Everything about a user's sessions is scoped to the user's organisation.
 */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async create(scope: OrgScope, input: { userId: number; access: AccessLevel; ip: string | null; userAgent: string | undefined }) {
    const row = {
      id: randomUUID(),
      user_id: input.userId,
      org_id: scope.orgId,
      access: input.access,
      refresh_jti: randomUUID(),
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 300) ?? null,
      expires_at: new Date(Date.now() + REFRESH_TOKEN_TTL_S * 1000),
    };
    await this.db.insertInto('sessions').values(row).execute();
    return row;
  }

  findLive(id: string) {
    return this.db
      .selectFrom('sessions')
      .select(['id', 'user_id', 'org_id', 'access', 'refresh_jti'])
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
  }

  /** Rotates the refresh token only if `jti` is still the current one; answers the new jti or null (a replay). */
  async rotate(id: string, jti: string, access?: AccessLevel): Promise<string | null> {
    const next = randomUUID();
    const result = await this.db
      .updateTable('sessions')
      .set({ refresh_jti: next, last_used_at: sql`now()`, ...(access ? { access } : {}) })
      .where('id', '=', id)
      .where('refresh_jti', '=', jti)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? next : null;
  }

  async revoke(id: string, reason: string): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: sql`now()`, revoked_reason: reason }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }

  /** Ends every session of a user (password reset or change), optionally keeping one. */
  async revokeAllForUser(scope: OrgScope, userId: number, reason: string, except?: string): Promise<void> {
    let q = this.db
      .updateTable('sessions')
      .set({ revoked_at: sql`now()`, revoked_reason: reason })
      .where('org_id', '=', scope.orgId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (except) q = q.where('id', '!=', except);
    await q.execute();
  }

  /** Housekeeping: sessions ended or expired before the cutoff. */
  async removeEndedBefore(graceDays: number): Promise<number> {
    const cutoff = sql<Date>`now() - make_interval(days => ${graceDays})`;
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
