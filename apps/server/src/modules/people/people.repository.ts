import { sql } from 'kysely';
import { LOGIN_FAILURES_MAX, LOGIN_LOCKOUT_S } from '@healthbook/shared';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';

/** One line of the people list: an account (`u…`) or a patient's pending invitation (`i…`). */
export interface PersonRow {
  key: string;
  user_id: number | null;
  invitation_id: number | null;
  first_name: string;
  last_name: string;
  email: string;
  roles: string[];
  is_superadmin: boolean;
  is_active: boolean;
  invited: boolean;
  created_at: Date;
  last_sign_in: Date | null;
  has_mfa: boolean;
  locked: boolean;
}

/** The roles that make an account staff. */
const STAFF = sql`array['provider', 'coach', 'org_admin', 'professional']::text[]`;

const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The people of one organisation: its accounts and the patients invited who have no account
 * yet, searched and paged in the database; and the row locks that keep at least one active
 * organisation admin whatever runs at once.
 */
/** What a change to an account reads of it, locked (lockUser, lockWithActiveAdmins). */
const LOCKED_COLUMNS = ['id', 'org_id', 'email', 'first_name', 'last_name', 'roles', 'is_superadmin', 'is_active', 'invited_at', 'email_confirmed_at', 'settings'] as const;

export class PeopleRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private base() {
    const org = this.scope.orgId;
    return sql`
      select 'u' || u.id as key, u.id as user_id, null::integer as invitation_id, u.first_name, u.last_name, u.email, u.roles,
             u.is_superadmin, u.is_active, (u.invited_at is not null and u.email_confirmed_at is null) as invited, u.created_at
        from users u where u.org_id = ${org}
      union all
      select * from (
        select distinct on (lower(i.email)) 'i' || i.id, null::integer, i.id, i.first_name, i.last_name, i.email, array['patient']::text[],
               false, true, true, i.created_at
          from invitations i
         where i.org_id = ${org} and i.used_at is null and i.patient_id is null
           and not exists (select 1 from users x where x.org_id = i.org_id and lower(x.email) = lower(i.email))
         order by lower(i.email), i.created_at desc, i.id desc
      ) pending`;
  }

  private filter(query: { search?: string | undefined; kind?: 'all' | 'patients' | 'staff' | undefined }) {
    const parts = [sql`true`];
    const words = (query.search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 5);
    for (const word of words) {
      const pattern = likePattern(word.toLowerCase());
      parts.push(sql`(lower(p.first_name) like ${pattern} or lower(p.last_name) like ${pattern} or lower(p.email) like ${pattern})`);
    }
    if (query.kind === 'staff') parts.push(sql`(p.is_superadmin or p.roles && ${STAFF})`);
    if (query.kind === 'patients') parts.push(sql`not (p.is_superadmin or p.roles && ${STAFF})`);
    return sql.join(parts, sql` and `);
  }

  /** A page of people (staff and patients, by name), with the total that matches. */
  async list(query: { search?: string | undefined; kind?: 'all' | 'patients' | 'staff' | undefined; page: number; pageSize: number }): Promise<{ count: number; rows: PersonRow[] }> {
    const where = this.filter(query);
    const counted = await sql<{ count: string }>`select count(*)::text as count from (${this.base()}) p where ${where}`.execute(this.db);
    const offset = (query.page - 1) * query.pageSize;
    const { rows } = await sql<PersonRow>`
      select p.*,
             (select max(s.created_at) from sessions s where s.user_id = p.user_id) as last_sign_in,
             exists (select 1 from mfa_devices d where d.user_id = p.user_id and d.confirmed) as has_mfa,
             exists (select 1 from attempt_counters c where c.scope = 'login' and c.key = ${this.scope.orgId}::text || ':' || lower(p.email)
                       and c.count >= ${LOGIN_FAILURES_MAX} and c.window_started_at > now() - make_interval(secs => ${LOGIN_LOCKOUT_S})) as locked
        from (${this.base()}) p
       where ${where}
       order by lower(p.last_name), lower(p.first_name), p.key
       limit ${query.pageSize} offset ${offset}`.execute(this.db);
    return { count: Number(counted.rows[0]?.count ?? 0), rows: rows.map((r) => ({ ...r, user_id: r.user_id === null ? null : Number(r.user_id), invitation_id: r.invitation_id === null ? null : Number(r.invitation_id) })) };
  }

  /** One account as a person (after a change). */
  async person(userId: number): Promise<PersonRow | undefined> {
    const { rows } = await sql<PersonRow>`
      select p.*,
             (select max(s.created_at) from sessions s where s.user_id = p.user_id) as last_sign_in,
             exists (select 1 from mfa_devices d where d.user_id = p.user_id and d.confirmed) as has_mfa,
             exists (select 1 from attempt_counters c where c.scope = 'login' and c.key = ${this.scope.orgId}::text || ':' || lower(p.email)
                       and c.count >= ${LOGIN_FAILURES_MAX} and c.window_started_at > now() - make_interval(secs => ${LOGIN_LOCKOUT_S})) as locked
        from (${this.base()}) p where p.user_id = ${userId}`.execute(this.db);
    return rows[0];
  }

  /**
   * Locks the account and the organisation's active admins, in one statement ordered by id, and
   * answers the account and the admins' ids. Inside a transaction: whoever demotes or deactivates
   * an admin counts the admins that remain after every change that ran before it committed.
   * One statement, because PostgreSQL keeps the lock on a row it skipped (an admin demoted while
   * it waited): locking the account after the admins took rows out of id order, and two admins
   * demoting each other at once could deadlock.
   */
  async lockWithActiveAdmins(userId: number) {
    const rows = await this.db
      .selectFrom('users')
      .select(LOCKED_COLUMNS)
      .where('org_id', '=', this.scope.orgId)
      .where(({ eb, or, and, val }) => or([eb('id', '=', userId), and([eb('is_active', '=', true), eb(val('org_admin'), '=', eb.fn.any('roles'))])]))
      .orderBy('id')
      .forUpdate()
      .execute();
    return {
      user: rows.find((r) => r.id === userId),
      admins: rows.filter((r) => r.is_active && r.roles.includes('org_admin')).map((r) => r.id),
    };
  }

  /** The account, locked for the change (inside a transaction). */
  async lockUser(userId: number) {
    return this.db
      .selectFrom('users')
      .select(LOCKED_COLUMNS)
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
  }

  async setRoles(userId: number, roles: string[], isSuperadmin: boolean): Promise<void> {
    await this.db.updateTable('users').set({ roles, is_superadmin: isSuperadmin, updated_at: sql`now()` }).where('org_id', '=', this.scope.orgId).where('id', '=', userId).execute();
  }

  async setActive(userId: number, active: boolean): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ is_active: active, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', userId)
      .where('is_active', '=', !active)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Removes every second-factor device of the account (and its outstanding codes); answers the types removed. */
  async removeMfa(userId: number): Promise<string[]> {
    await this.db.deleteFrom('mfa_codes').where('org_id', '=', this.scope.orgId).where('user_id', '=', userId).execute();
    const removed = await this.db.deleteFrom('mfa_devices').where('org_id', '=', this.scope.orgId).where('user_id', '=', userId).returning(['device_type', 'confirmed']).execute();
    return removed.filter((d) => d.confirmed).map((d) => d.device_type);
  }

  /** A staff member invited: an account with no password, roles set, waiting for its set-password link. */
  async insertInvitedStaff(values: { email: string; first_name: string; last_name: string; roles: string[]; language: string }): Promise<number> {
    const row = await this.db
      .insertInto('users')
      .values({
        org_id: this.scope.orgId,
        email: values.email,
        first_name: values.first_name,
        last_name: values.last_name,
        roles: values.roles,
        // No password until they choose one through the set-password link (a null hash never signs in).
        password_hash: null,
        settings: JSON.stringify({ language: values.language }),
        invited_at: sql<Date>`now()`,
        created_at: sql<Date>`now()`,
        updated_at: sql<Date>`now()`,
      } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async removeUser(userId: number): Promise<void> {
    await this.db.deleteFrom('users').where('org_id', '=', this.scope.orgId).where('id', '=', userId).execute();
  }

  /** A patient's pending invitation of this organisation. */
  pendingInvitation(id: number) {
    return this.db.selectFrom('invitations').selectAll().where('org_id', '=', this.scope.orgId).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  }
}

/** The organisation of an account, whatever it is (super admins reach any). */
export async function orgOfUser(db: Db, userId: number): Promise<number | undefined> {
  const row = await db.selectFrom('users').select('org_id').where('id', '=', userId).executeTakeFirst();
  return row?.org_id;
}

/** The organisation of an invitation, whatever it is (super admins reach any). */
export async function orgOfInvitation(db: Db, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('invitations').select('org_id').where('id', '=', id).executeTakeFirst();
  return row?.org_id;
}
