import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** The account a repository acts for: links are always read from one side. */
export interface AccountScope {
  userId: number;
  orgId: number;
}

/** A link as one side sees it: the other account and its organisation. */
export interface LinkRow {
  id: number;
  other_user_id: number;
  other_org_id: number;
  other_email: string;
  other_first_name: string;
  other_last_name: string;
  created_at: Date;
}

/** The pair as stored: the smaller user id first (unique regardless of order). */
export function orderedPair(a: AccountScope, b: AccountScope) {
  const [first, second] = a.userId < b.userId ? [a, b] : [b, a];
  return { user_a: first.userId, org_a: first.orgId, user_b: second.userId, org_b: second.orgId };
}

/**
 * Links between accounts of different organisations, from one account's side: every query
 * names that account (user and organisation) in the row, so an account reaches its own links
 * and nobody else's.
 */
export class AccountLinksRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: AccountScope,
  ) {}

  private links() {
    const { userId, orgId } = this.scope;
    return this.db
      .selectFrom('account_links as l')
      .innerJoin('users as o', (join) =>
        join.on((eb) =>
          eb.or([
            eb.and([eb('l.user_a', '=', userId), eb('l.org_a', '=', orgId), eb('o.id', '=', eb.ref('l.user_b'))]),
            eb.and([eb('l.user_b', '=', userId), eb('l.org_b', '=', orgId), eb('o.id', '=', eb.ref('l.user_a'))]),
          ]),
        ),
      )
      .select(['l.id', 'o.id as other_user_id', 'o.org_id as other_org_id', 'o.email as other_email', 'o.first_name as other_first_name', 'o.last_name as other_last_name', 'l.created_at'])
      .where('o.is_active', '=', true);
  }

  list(): Promise<LinkRow[]> {
    return this.links().orderBy('l.created_at').orderBy('l.id').execute();
  }

  find(id: number): Promise<LinkRow | undefined> {
    return this.links().where('l.id', '=', id).executeTakeFirst();
  }

  /** The link with that account, if any. */
  async findWith(other: AccountScope): Promise<{ id: number } | undefined> {
    const pair = orderedPair(this.scope, other);
    return this.db.selectFrom('account_links').select('id').where('user_a', '=', pair.user_a).where('user_b', '=', pair.user_b).executeTakeFirst();
  }

  /** Links this account with another; undefined when they were linked already (also by a request at the same time). */
  async insert(other: AccountScope): Promise<{ id: number; created_at: Date } | undefined> {
    return this.db
      .insertInto('account_links')
      .values({ ...orderedPair(this.scope, other), created_by: this.scope.userId })
      .onConflict((oc) => oc.columns(['user_a', 'user_b']).doNothing())
      .returning(['id', 'created_at'])
      .executeTakeFirst();
  }

  /** Removes one of this account's links (its switch tokens go with it); answers the other account, or undefined. */
  async remove(id: number): Promise<{ user_a: number; org_a: number; user_b: number; org_b: number } | undefined> {
    const { userId, orgId } = this.scope;
    return this.db
      .deleteFrom('account_links')
      .where('id', '=', id)
      .where((eb) => eb.or([eb.and([eb('user_a', '=', userId), eb('org_a', '=', orgId)]), eb.and([eb('user_b', '=', userId), eb('org_b', '=', orgId)])]))
      .returning(['user_a', 'org_a', 'user_b', 'org_b'])
      .executeTakeFirst();
  }

  /** Removes every link of this account (their switch tokens go with them); answers the pairs. */
  removeAll(): Promise<Array<{ id: number; user_a: number; org_a: number; user_b: number; org_b: number }>> {
    const { userId, orgId } = this.scope;
    return this.db
      .deleteFrom('account_links')
      .where((eb) => eb.or([eb.and([eb('user_a', '=', userId), eb('org_a', '=', orgId)]), eb.and([eb('user_b', '=', userId), eb('org_b', '=', orgId)])]))
      .returning(['id', 'user_a', 'org_a', 'user_b', 'org_b'])
      .execute();
  }

  /** Forgets the devices remembered as having passed this account's second factor. */
  async forgetDevices(): Promise<void> {
    await this.db.deleteFrom('account_link_devices').where('user_id', '=', this.scope.userId).where('org_id', '=', this.scope.orgId).execute();
  }

  /** What a notice to each of these accounts needs: address, name, language setting, organisation's name. */
  contacts(accounts: AccountScope[]) {
    if (accounts.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('users as u')
      .innerJoin('organizations as o', 'o.id', 'u.org_id')
      .select(['u.id', 'u.org_id', 'u.email', 'u.first_name', 'u.settings', 'o.org_name'])
      .where((eb) => eb.or(accounts.map((a) => eb.and([eb('u.id', '=', a.userId), eb('u.org_id', '=', a.orgId)]))))
      .execute();
  }

  /** A switch token from this account to the other of a link (stored hashed). */
  async insertToken(link: LinkRow, tokenHash: string, sessionId: string, ttlS: number): Promise<void> {
    await this.db
      .insertInto('account_link_tokens')
      .values({
        link_id: link.id,
        token_hash: tokenHash,
        from_user_id: this.scope.userId,
        from_session_id: sessionId,
        to_user_id: link.other_user_id,
        to_org_id: link.other_org_id,
        expires_at: sql<Date>`now() + make_interval(secs => ${ttlS})`,
      })
      .execute();
  }
}

/** A switch token once used. */
export interface UsedToken {
  link_id: number;
  from_user_id: number;
  from_session_id: string | null;
  to_user_id: number;
  to_org_id: number;
}

/**
 * Switch tokens and device confirmations, found by what the client presents: a token's hash
 * (256 random bits) or a device cookie's hash. The secret is the capability, so these lookups
 * need no account scope (as a session is found by its id).
 */
export class LinkTokensRepository {
  constructor(private readonly db: Db) {}

  /** Uses a live token, atomically: of requests presenting it at once, one gets the row. */
  consume(tokenHash: string): Promise<UsedToken | undefined> {
    return this.db
      .updateTable('account_link_tokens')
      .set({ used_at: sql`now()` })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['link_id', 'from_user_id', 'from_session_id', 'to_user_id', 'to_org_id'])
      .executeTakeFirst();
  }

  /** Why a token did not work, for the audit trail: used, expired, or unknown (undefined). */
  async whyNot(tokenHash: string): Promise<{ reason: 'replayed' | 'expired'; to_user_id: number; to_org_id: number } | undefined> {
    const row = await this.db.selectFrom('account_link_tokens').select(['used_at', 'to_user_id', 'to_org_id']).where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row) return undefined;
    return { reason: row.used_at ? 'replayed' : 'expired', to_user_id: row.to_user_id, to_org_id: row.to_org_id };
  }

  /** Whether the second factor of that account was passed on this device (a confirmation, or a switch's session that was upgraded). */
  async deviceConfirmed(deviceHash: string, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('account_link_devices as d')
      .leftJoin('sessions as s', 's.id', 'd.session_id')
      .select('d.id')
      .where('d.device_hash', '=', deviceHash)
      .where('d.user_id', '=', userId)
      .where((eb) => eb.or([eb('d.confirmed_at', 'is not', null), eb.and([eb('s.access', '=', 'full'), eb('s.user_id', '=', userId)])]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The device passed that account's second factor (or, with a session, will once that session is upgraded). */
  async rememberDevice(deviceHash: string, account: AccountScope, pendingSession?: string): Promise<void> {
    await this.db
      .insertInto('account_link_devices')
      .values({
        device_hash: deviceHash,
        user_id: account.userId,
        org_id: account.orgId,
        session_id: pendingSession ?? null,
        confirmed_at: pendingSession ? null : sql<Date>`now()`,
      })
      .execute();
  }

  /** Housekeeping: tokens used or expired before the cutoff. */
  async removeSpent(): Promise<number> {
    const result = await this.db
      .deleteFrom('account_link_tokens')
      .where((eb) => eb.or([eb('expires_at', '<', sql<Date>`now() - interval '1 day'`), eb('used_at', '<', sql<Date>`now() - interval '1 day'`)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
