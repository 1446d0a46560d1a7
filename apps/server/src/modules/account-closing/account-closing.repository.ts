import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';
import type { ErasureMatch, TableErasure } from './erasure-plan';

export interface ClosingRow {
  id: number;
  org_id: number;
  user_id: number | null;
  pseudonym: string;
  status: 'pending' | 'cancelled' | 'erased';
  requested_at: Date;
  erase_after: Date;
  dependants: number;
}

export interface DependantRow {
  id: number;
  first_name: string;
  last_name: string;
  relationship: string | null;
}

export interface PendingClosingRow extends ClosingRow {
  user_id: number;
  first_name: string;
  last_name: string;
  email: string;
}

/** Someone on the other side of a care-network grant, to be told the grant ended. */
export interface CounterpartRow {
  grant_id: number;
  user_id: number;
  side: 'grantee' | 'patient';
}

/** A patient's closing of their account, within one organisation. */
export class AccountClosingRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  pending(userId: number): Promise<ClosingRow | undefined> {
    return this.db
      .selectFrom('account_closings')
      .select(['id', 'org_id', 'user_id', 'pseudonym', 'status', 'requested_at', 'erase_after', 'dependants'])
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
  }

  /** A new pending closing, or nothing when one is already pending (two requests at once make one). */
  async start(userId: number, pseudonym: string, eraseAfter: Date, dependants: number): Promise<ClosingRow | undefined> {
    const { rows } = await sql<ClosingRow>`
      insert into account_closings (org_id, user_id, pseudonym, erase_after, dependants)
      values (${this.scope.orgId}, ${userId}, ${pseudonym}, ${eraseAfter}, ${dependants})
      on conflict (user_id) where status = 'pending' do nothing
      returning id, org_id, user_id, pseudonym, status, requested_at, erase_after, dependants`.execute(this.db);
    return rows[0];
  }

  /** Cancels the account's pending closing (signing in again); answers it, or nothing when none was pending. */
  async cancel(userId: number): Promise<ClosingRow | undefined> {
    return this.db
      .updateTable('account_closings')
      .set({ status: 'cancelled', cancelled_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .returning(['id', 'org_id', 'user_id', 'pseudonym', 'status', 'requested_at', 'erase_after', 'dependants'])
      .executeTakeFirst();
  }

  /** The organisation's pending closings, soonest erasure first. */
  listPending(): Promise<PendingClosingRow[]> {
    return this.db
      .selectFrom('account_closings as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select(['c.id', 'c.org_id', 'c.user_id', 'c.pseudonym', 'c.status', 'c.requested_at', 'c.erase_after', 'c.dependants', 'u.first_name', 'u.last_name', 'u.email'])
      .where('c.org_id', '=', this.scope.orgId)
      .where('c.status', '=', 'pending')
      .orderBy('c.erase_after')
      .orderBy('c.id')
      .$castTo<PendingClosingRow>()
      .execute();
  }

  /** The account's own patient (its record), if it has one. */
  async ownPatientIds(userId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('patients').select('id').where('org_id', '=', this.scope.orgId).where('user_id', '=', userId).execute();
    return rows.map((r) => r.id);
  }

  /**
   * Family members this account alone manages: an active dependant grant of this account, no
   * account of their own, and no other person managing them. They are erased with the account.
   */
  async soleDependants(userId: number): Promise<DependantRow[]> {
    const { rows } = await sql<DependantRow>`
      select p.id, coalesce(p.first_name, '') as first_name, coalesce(p.last_name, '') as last_name, g.relationship
        from patient_grants g
        join patients p on p.id = g.patient_id and p.org_id = g.org_id
       where g.org_id = ${this.scope.orgId} and g.grantee_user_id = ${userId}
         and g.kind = 'dependant' and g.status = 'active' and p.user_id is null
         and not exists (
           select 1 from patient_grants o
            where o.patient_id = p.id and o.kind = 'dependant' and o.status = 'active' and o.grantee_user_id <> ${userId})
       order by p.first_name, p.last_name, p.id`.execute(this.db);
    return rows;
  }

  /** Booked appointments of these patients that have not begun (cancelled before the erasure). */
  async upcomingAppointments(patientIds: readonly number[]): Promise<number[]> {
    if (patientIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('appointments')
      .select('id')
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', 'in', patientIds)
      .where('status', '=', 'booked')
      .where('start_time', '>', new Date())
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The other side of the account's care-network grants, both directions: the people let into
   * these patients' records (active), and the patients whose records this account was let into
   * (when they have an account). Not the account itself, not family members erased with it.
   */
  async careCounterparts(userId: number, patientIds: readonly number[]): Promise<CounterpartRow[]> {
    const erased = patientIds.length ? sql`${sql.join(patientIds)}` : sql`null`;
    const { rows } = await sql<CounterpartRow>`
      select g.id as grant_id, g.grantee_user_id as user_id, 'grantee' as side
        from patient_grants g
       where g.org_id = ${this.scope.orgId} and g.patient_id in (${erased}) and g.status = 'active'
         and g.grantee_user_id is not null and g.grantee_user_id <> ${userId}
      union all
      select g.id, p.user_id, 'patient'
        from patient_grants g join patients p on p.id = g.patient_id
       where g.org_id = ${this.scope.orgId} and g.grantee_user_id = ${userId} and g.status = 'active'
         and g.kind = 'invitation' and p.user_id is not null and p.id not in (${erased})`.execute(this.db);
    return rows;
  }
}

/**
 * Claims closings whose time has come, across organisations, each by one process (FOR UPDATE
 * SKIP LOCKED), for ten minutes: a process that dies mid-way leaves its claim to expire and
 * another takes it over.
 */
export async function claimDueClosings(db: Db, now: Date, limit: number): Promise<ClosingRow[]> {
  const { rows } = await sql<ClosingRow>`
    update account_closings c set claimed_until = ${new Date(now.getTime() + 10 * 60_000)}
     where c.id in (
       select id from account_closings
        where status = 'pending' and erase_after <= ${now} and (claimed_until is null or claimed_until < ${now})
        order by erase_after limit ${limit}
        for update skip locked)
    returning c.id, c.org_id, c.user_id, c.pseudonym, c.status, c.requested_at, c.erase_after, c.dependants`.execute(db);
  return rows;
}

const matchCondition = (match: ErasureMatch, patientIds: readonly number[]): RawBuilder<unknown> => {
  const ids = sql.join(patientIds);
  return 'parent' in match
    ? sql`${sql.ref(match.column)} in (select id from ${sql.table(match.parent)} where patient_id in (${ids}))`
    : sql`${sql.ref(match.column)} in (${ids})`;
};

/** Which rows of the step's table belong to these patients or the account (null: none can). One condition for the erasure and its preview. */
function stepWhere(step: TableErasure, patientIds: readonly number[], userId: number): RawBuilder<unknown> | null {
  const conditions = [...(patientIds.length ? step.match.map((m) => matchCondition(m, patientIds)) : []), ...(step.user ? [sql`${sql.ref(step.user)} = ${userId}`] : [])];
  return conditions.length ? sql.join(conditions, sql` or `) : null;
}

/**
 * What eraseStep would delete, counted without deleting (the closing page's preview): the rows,
 * and the storage keys they hold (distinct keys, as the erasure removes each file once).
 */
export async function countStep(db: Db, step: TableErasure, patientIds: readonly number[], userId: number): Promise<{ rows: number; files: string[] }> {
  const where = stepWhere(step, patientIds, userId);
  if (!where) return { rows: 0, files: [] };
  const fileColumns = step.files ?? [];
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(step.table)} where ${where}`.execute(db);
  if (fileColumns.length === 0) return { rows: rows[0]?.n ?? 0, files: [] };
  const held = sql.join(fileColumns.map((c) => sql`${sql.ref(c)} is not null`), sql` or `);
  const { rows: keys } = await sql<Record<string, string | null>>`select ${sql.join(fileColumns.map((c) => sql.ref(c)))} from ${sql.table(step.table)} where (${where}) and (${held})`.execute(db);
  const files = keys.flatMap((row) => fileColumns.map((c) => row[c]).filter((key): key is string => typeof key === 'string' && key.length > 0));
  return { rows: rows[0]?.n ?? 0, files };
}

/**
 * Deletes one table's rows of these patients (and of the account, where the table names a user
 * column), following the plan's step. Answers how many rows went and the storage keys they held.
 */
export async function eraseStep(trx: Db, step: TableErasure, patientIds: readonly number[], userId: number): Promise<{ rows: number; files: string[] }> {
  const where = stepWhere(step, patientIds, userId);
  if (!where) return { rows: 0, files: [] };
  const fileColumns = step.files ?? [];
  const returning = fileColumns.length ? sql`returning ${sql.join(fileColumns.map((c) => sql.ref(c)))}` : sql`returning 1 as one`;
  const { rows } = await sql<Record<string, string | null>>`delete from ${sql.table(step.table)} where ${where} ${returning}`.execute(trx);
  const files = rows.flatMap((row) => fileColumns.map((c) => row[c]).filter((key): key is string => typeof key === 'string' && key.length > 0));
  return { rows: rows.length, files };
}

/** What an erased account's audit rows may keep of their detail: numbers, yes/no, and these words (never a name, address or health detail). */
const AUDIT_DETAIL_WORDS = ['reason', 'method', 'device_type', 'access', 'what', 'via', 'side', 'limit', 'area'];

/**
 * The organisation's audit trail keeps what happened, when and where (organisation), but no
 * longer who: the account's rows (as actor) lose the user id and address; rows about the
 * account or its patients (subject) name the pseudonym instead; every such row's detail keeps
 * only numbers, yes/no and a few fixed words, plus the pseudonym (stable: one person's rows can
 * still be told apart from another's).
 */
export async function pseudonymiseAudit(trx: Db, who: { userId: number; orgId: number; email: string; patientIds: readonly number[] }, pseudonym: string): Promise<number> {
  const subjects = [`user:${who.userId}`, `${who.orgId}:${who.email.trim().toLowerCase()}`, ...who.patientIds.map((id) => `patient:${id}`)];
  const { rows } = await sql<{ n: number }>`
    with changed as (
      update audit_log a set
        actor_user_id = case when a.actor_user_id = ${who.userId} then null else a.actor_user_id end,
        ip = case when a.actor_user_id = ${who.userId} then null else a.ip end,
        subject = case when a.subject in (${sql.join(subjects)}) then ${`closed:${pseudonym}`} else a.subject end,
        detail = coalesce((
          select jsonb_object_agg(e.key, e.value) from jsonb_each(a.detail) e
           where jsonb_typeof(e.value) in ('number', 'boolean')
              or (e.key in (${sql.join(AUDIT_DETAIL_WORDS)}) and jsonb_typeof(e.value) = 'string')
        ), '{}'::jsonb) || jsonb_build_object('pseudonym', ${pseudonym}::text)
       where a.actor_user_id = ${who.userId} or a.subject in (${sql.join(subjects)})
      returning 1)
    select count(*)::int as n from changed`.execute(trx);
  return rows[0]?.n ?? 0;
}

/** The rest of an account once its patients' data is gone: the mail kept for it, its sign-in counters, the shares' addresses, then the users row (its sessions, tokens, second factors and links go with it). */
export async function eraseAccount(
  trx: Db,
  who: { userId: number; orgId: number; email: string },
  erasedShares: ReadonlyArray<{ uid: string; token_hash: string }>,
): Promise<{ avatar: string | null; mail: number }> {
  if (erasedShares.length) await trx.insertInto('erased_shares').values(erasedShares.map((s) => ({ uid: s.uid, token_hash: s.token_hash }))).onConflict((oc) => oc.doNothing()).execute();
  const email = who.email.trim().toLowerCase();
  const mail = await trx.deleteFrom('mail_outbox').where(sql`lower(to_address)`, '=', email).executeTakeFirst();
  await trx.deleteFrom('attempt_counters').where('key', 'in', [`${who.orgId}:${email}`, String(who.userId)]).execute();
  const user = await trx.deleteFrom('users').where('id', '=', who.userId).where('org_id', '=', who.orgId).returning(['avatar_key']).executeTakeFirst();
  return { avatar: user?.avatar_key ?? null, mail: Number(mail.numDeletedRows) };
}

/** The shares of these patients (their addresses kept as erased, so the links answer "revoked"). */
export async function sharesOf(trx: Db, patientIds: readonly number[]): Promise<Array<{ uid: string; token_hash: string }>> {
  if (patientIds.length === 0) return [];
  return trx.selectFrom('shares').select(['uid', 'token_hash']).where('patient_id', 'in', patientIds).execute();
}

/** Marks a closing erased: the tombstone keeps the pseudonym, the time and the counts, nothing else. */
export async function markErased(trx: Db, closingId: number, summary: Record<string, number>): Promise<void> {
  await trx
    .updateTable('account_closings')
    .set({ status: 'erased', erased_at: sql`now()`, user_id: null, claimed_until: null, erased_summary: JSON.stringify(summary) })
    .where('id', '=', closingId)
    .execute();
}
