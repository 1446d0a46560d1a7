import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';

/** The private calendar feeds of one organisation's users (the token is kept as its hash only). */
export class CalendarFeedsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  async createdAt(userId: number): Promise<Date | null> {
    const row = await this.db.selectFrom('calendar_feeds').select('created_at').where('user_id', '=', userId).where('org_id', '=', this.scope.orgId).executeTakeFirst();
    return row ? new Date(row.created_at) : null;
  }

  /** Sets the user's token hash (replacing the old one); answers when. */
  async put(userId: number, tokenHash: string): Promise<Date> {
    const row = await this.db
      .insertInto('calendar_feeds')
      .values({ user_id: userId, org_id: this.scope.orgId, token_hash: tokenHash })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ token_hash: tokenHash, created_at: sql`now()` }))
      .returning('created_at')
      .executeTakeFirstOrThrow();
    return new Date(row.created_at);
  }

  async remove(userId: number): Promise<void> {
    await this.db.deleteFrom('calendar_feeds').where('user_id', '=', userId).where('org_id', '=', this.scope.orgId).execute();
  }

  /** The active user a token hash opens, with their organisation (the token is its own proof, so not scoped). */
  static ownerOf(db: Db, tokenHash: string) {
    return db
      .selectFrom('calendar_feeds as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .innerJoin('organizations as o', 'o.id', 'u.org_id')
      .where('f.token_hash', '=', tokenHash)
      .where('u.is_active', '=', true)
      .whereRef('u.org_id', '=', 'f.org_id')
      .select(['u.id', 'u.org_id', 'u.settings', 'o.org_name'])
      .executeTakeFirst();
  }
}
