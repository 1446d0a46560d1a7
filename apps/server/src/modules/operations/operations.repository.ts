import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';

/** A period of whole days in a time zone: [from 00:00, to + 1 day 00:00). */
export interface Period {
  from: string;
  to: string;
  tz: string;
}

const n = (v: unknown) => Number(v ?? 0);

/**
 * The figures of the operations dashboard for one organisation, read from the tables and the
 * audit log as they are (no sampling). Days are counted in the period's time zone.
 */
export class OperationsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private start(p: Period) {
    return sql<Date>`(${p.from}::date)::timestamp at time zone ${p.tz}`;
  }
  private end(p: Period) {
    return sql<Date>`(${p.to}::date + 1)::timestamp at time zone ${p.tz}`;
  }

  async accounts(): Promise<{ users: number; patients: number; withSecondFactor: number }> {
    const row = await this.db
      .selectFrom('users as u')
      .select([
        sql<number>`count(*)`.as('users'),
        sql<number>`count(*) filter (where 'patient' = any(u.roles))`.as('patients'),
        sql<number>`count(*) filter (where exists (select 1 from mfa_devices d where d.user_id = u.id and d.org_id = u.org_id and d.confirmed))`.as('with_mfa'),
      ])
      .where('u.org_id', '=', this.scope.orgId)
      .where('u.is_active', '=', true)
      .executeTakeFirstOrThrow();
    return { users: n(row.users), patients: n(row.patients), withSecondFactor: n(row.with_mfa) };
  }

  /** Accounts that signed in or used a feature in the `days` days ending with the period. */
  async activeUsers(p: Period, days: number): Promise<number> {
    const end = this.end(p);
    const start = sql<Date>`${end} - make_interval(days => ${days})`;
    const row = await sql<{ active: number }>`
      select count(distinct user_id) as active from (
        select actor_user_id as user_id from audit_log
          where org_id = ${this.scope.orgId} and action = 'login' and outcome = 'success' and at >= ${start} and at < ${end}
        union
        select user_id from operations
          where org_id = ${this.scope.orgId} and at >= ${start} and at < ${end}
      ) who where user_id is not null`.execute(this.db);
    return n(row.rows[0]?.active);
  }

  /** Sign-ins, failed sign-ins and lockouts for every day of the period (days without any included). */
  async dailySignIns(p: Period): Promise<Array<{ date: string; sign_ins: number; failed_sign_ins: number; lockouts: number }>> {
    const result = await sql<{ date: string; sign_ins: number; failed_sign_ins: number; lockouts: number }>`
      with days as (
        select d::date as day from generate_series(${p.from}::date, ${p.to}::date, interval '1 day') d
      ), events as (
        select (at at time zone ${p.tz})::date as day, outcome, detail->>'reason' as reason
        from audit_log
        where org_id = ${this.scope.orgId} and action = 'login' and at >= ${this.start(p)} and at < ${this.end(p)}
      )
      select to_char(days.day, 'YYYY-MM-DD') as date,
        count(events.day) filter (where events.outcome = 'success') as sign_ins,
        count(events.day) filter (where events.outcome = 'failure') as failed_sign_ins,
        count(events.day) filter (where events.outcome = 'denied' and events.reason = 'locked') as lockouts
      from days left join events on events.day = days.day
      group by days.day order by days.day`.execute(this.db);
    return result.rows.map((r) => ({ date: r.date, sign_ins: n(r.sign_ins), failed_sign_ins: n(r.failed_sign_ins), lockouts: n(r.lockouts) }));
  }

  /** Invitations pending now, and used and expired during the period. */
  async invitations(p: Period): Promise<{ pending: number; used: number; expired: number }> {
    const row = await this.db
      .selectFrom('invitations')
      .select([
        sql<number>`count(*) filter (where used_at is null and expires_at > now())`.as('pending'),
        sql<number>`count(*) filter (where used_at >= ${this.start(p)} and used_at < ${this.end(p)})`.as('used'),
        sql<number>`count(*) filter (where used_at is null and expires_at >= ${this.start(p)} and expires_at < least(${this.end(p)}, now()))`.as('expired'),
      ])
      .where('org_id', '=', this.scope.orgId)
      .executeTakeFirstOrThrow();
    return { pending: n(row.pending), used: n(row.used), expired: n(row.expired) };
  }

  /** Uses of each feature (menu navigations saved as operations) during the period, most used first. */
  async featureUsage(p: Period): Promise<Array<{ feature_id: number; uses: number }>> {
    const rows = await this.db
      .selectFrom('operations')
      .select(['feature_id', sql<number>`count(*)`.as('uses')])
      .where('org_id', '=', this.scope.orgId)
      .where('at', '>=', this.start(p))
      .where('at', '<', this.end(p))
      .groupBy('feature_id')
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('feature_id')
      .execute();
    return rows.map((r) => ({ feature_id: r.feature_id, uses: n(r.uses) }));
  }
}

/**
 * The whole installation's backlogs, for /metrics (plugins/metrics.ts): no organisation is named,
 * only how much waits. Across organisations: the operator's view, never a user's.
 */
export class BacklogRepository {
  constructor(private readonly db: Db) {}

  /** Live chats waiting for a provider or coach. */
  async chatsQueued(): Promise<number> {
    const row = await this.db.selectFrom('chat_conversations').select(sql<string>`count(*)`.as('count')).where('status', '=', 'queued').executeTakeFirstOrThrow();
    return n(row.count);
  }

  /** Reminders due and not yet sent. */
  async remindersDue(): Promise<number> {
    const row = await this.db.selectFrom('reminders').select(sql<string>`count(*)`.as('count')).where('status', '=', 'pending').where('remind_at', '<=', sql<Date>`now()`).executeTakeFirstOrThrow();
    return n(row.count);
  }
}
