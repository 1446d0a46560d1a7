import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';
import { patientColumns, type PatientRow } from '../patients/patients.repository';

/** A row of patient_grants as the care network reads it, with the accepting account's own name. */
export interface CareGrantRow {
  id: number;
  org_id: number;
  patient_id: number;
  kind: 'invitation' | 'dependant';
  grantee_user_id: number | null;
  invited_by: number | null;
  name: string;
  email: string | null;
  access: 'full' | 'read-only';
  categories: string[] | null;
  status: 'pending' | 'active' | 'revoked' | 'declined';
  expires_at: Date | null;
  created_at: Date;
  accepted_at: Date | null;
  ended_at: Date | null;
  /** The grantee account's names and address (null until accepted). */
  account_first_name: string | null;
  account_last_name: string | null;
  account_email: string | null;
}

/** A grant the signed-in user holds, with the patient it opens. */
export interface HeldGrantRow extends PatientRow {
  grant_id: number;
  grant_kind: 'invitation' | 'dependant';
  grant_access: 'full' | 'read-only';
  grant_categories: string[] | null;
  grant_since: Date;
}

/** A person to write to: an account's address, name, language setting and organisation. */
export interface ContactRow {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  settings: unknown;
  org_name: string;
  client_id: string;
}

/**
 * One line of a patient's audit trail: the events alike on one day (same person or share, same
 * action and outcome, same part of the record), with what is needed to say who it was.
 */
export interface AccessLogRow {
  id: number;
  /** The latest and the first of them. */
  at: Date;
  first_at: Date;
  /** How many events the line stands for. */
  count: number;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  actor_user_id: number | null;
  detail: Record<string, unknown>;
  actor_first_name: string | null;
  actor_last_name: string | null;
  /** The actor held (or holds) a care-network grant of this patient. */
  actor_in_network: boolean;
  share_recipient: string | null;
}

export type NewCareInvitation = {
  patient_id: number;
  invited_by: number;
  name: string;
  email: string;
  access: 'full' | 'read-only';
  categories: string[] | null;
  token_hash: string;
  expires_at: Date;
};

const LIVE = ['pending', 'active'] as const;

/** The care network of one organisation's patients (patient_grants): every query filters by the organisation. */
/** A grant's columns with its account's names (the account that accepted it, if any). */
const GRANT_COLUMNS = [
  'g.id',
  'g.org_id',
  'g.patient_id',
  'g.kind',
  'g.grantee_user_id',
  'g.invited_by',
  'g.name',
  'g.email',
  'g.access',
  'g.categories',
  'g.status',
  'g.expires_at',
  'g.created_at',
  'g.accepted_at',
  'g.ended_at',
  'a.first_name as account_first_name',
  'a.last_name as account_last_name',
  'a.email as account_email',
] as const;

export class CareNetworkRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  private select() {
    return this.db
      .selectFrom('patient_grants as g')
      .leftJoin('users as a', 'a.id', 'g.grantee_user_id')
      .select(GRANT_COLUMNS)
      .where('g.org_id', '=', this.scope.orgId)
      .$castTo<CareGrantRow>();
  }

  /** A patient's network: pending (also expired) and active rows, oldest first. */
  listForPatient(patientId: number): Promise<CareGrantRow[]> {
    return this.select().where('g.patient_id', '=', patientId).where('g.status', 'in', LIVE).orderBy('g.created_at').orderBy('g.id').execute();
  }

  /** One row of a patient's network, whatever its status. */
  get(patientId: number, id: number): Promise<CareGrantRow | undefined> {
    return this.select().where('g.patient_id', '=', patientId).where('g.id', '=', id).executeTakeFirst();
  }

  /** Locks the patient's row: invitations into one record are decided one at a time (the network's size). */
  async lockPatient(patientId: number): Promise<void> {
    await this.db.selectFrom('patients').select('id').where('org_id', '=', this.scope.orgId).where('id', '=', patientId).forUpdate().execute();
  }

  async countLive(patientId: number): Promise<number> {
    const row = await this.db
      .selectFrom('patient_grants')
      .select(sql<string>`count(*)`.as('n'))
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', patientId)
      .where('status', 'in', LIVE)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The live row of an address in a patient's network, if any (pending, also expired, or active). */
  liveByEmail(patientId: number, email: string): Promise<CareGrantRow | undefined> {
    return this.select()
      .where('g.patient_id', '=', patientId)
      .where('g.status', 'in', LIVE)
      .where(sql<boolean>`lower(g.email) = ${email.toLowerCase()}`)
      .executeTakeFirst();
  }

  /** Ends pending invitations of an address that ran out (they no longer hold its place in the network). */
  async retireExpired(patientId: number, email: string): Promise<void> {
    await this.db
      .updateTable('patient_grants')
      .set({ status: 'revoked', token_hash: null, ended_at: sql`now()`, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', patientId)
      .where('status', '=', 'pending')
      .where('expires_at', '<=', sql<Date>`now()`)
      .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
      .execute();
  }

  async insertInvitation(values: NewCareInvitation): Promise<number> {
    const row = await this.db
      .insertInto('patient_grants')
      .values({ ...values, org_id: this.scope.orgId, kind: 'invitation', status: 'pending', categories: values.categories === null ? null : JSON.stringify(values.categories) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Changes a live row's access and/or categories; undefined when it is not live (or not the patient's). */
  async update(patientId: number, id: number, change: { access?: 'full' | 'read-only'; categories?: string[] | null }): Promise<number | undefined> {
    const set: Record<string, unknown> = { updated_at: sql`now()` };
    if (change.access !== undefined) set.access = change.access;
    if (change.categories !== undefined) set.categories = change.categories === null ? null : JSON.stringify(change.categories);
    const row = await this.db
      .updateTable('patient_grants')
      .set(set)
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', patientId)
      .where('id', '=', id)
      .where('status', 'in', LIVE)
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /** Ends a live row (removed by the patient, or left by the person): the status it had, or undefined when it was not live. */
  /**
   * Ends a grant, and with it, in the same statement, every live share the person made of the
   * patient's record (a share outlives nobody's access: its recipients' sessions end too).
   * Answers the status the grant had and how many shares ended; undefined when it was not live.
   */
  async end(patientId: number, id: number): Promise<{ was: 'pending' | 'active'; sharesEnded: number } | undefined> {
    // The joined copy is read from the statement's snapshot: the status the row had before this change.
    const result = await sql<{ was: 'pending' | 'active'; shares_ended: string }>`
      with ended as (
        update patient_grants g
        set status = 'revoked', token_hash = null, ended_at = now(), updated_at = now()
        from patient_grants before
        where before.id = g.id and g.id = ${id} and g.org_id = ${this.scope.orgId} and g.patient_id = ${patientId} and g.status in ('pending', 'active')
        returning before.status as was, g.grantee_user_id
      ), shares_ended as (
        update shares s set revoked_at = now()
        from ended
        where ended.was = 'active' and s.created_by = ended.grantee_user_id and s.org_id = ${this.scope.orgId} and s.patient_id = ${patientId}
          and s.revoked_at is null and s.expires_at > now()
        returning s.id
      ), sessions_ended as (
        delete from share_sessions where share_id in (select id from shares_ended) returning 1
      )
      select was, (select count(*) from shares_ended) as shares_ended, (select count(*) from sessions_ended) as sessions from ended`.execute(this.db);
    const row = result.rows[0];
    return row ? { was: row.was, sharesEnded: Number(row.shares_ended) } : undefined;
  }

  /** A new token and expiry for a pending invitation (also an expired one); false when it is no longer pending. */
  async renewToken(patientId: number, id: number, tokenHash: string, expiresAt: Date): Promise<boolean> {
    const row = await this.db
      .updateTable('patient_grants')
      .set({ token_hash: tokenHash, expires_at: expiresAt, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', patientId)
      .where('id', '=', id)
      .where('kind', '=', 'invitation')
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return !!row;
  }

  /** The pending invitation a token names, in this organisation (an accepted, removed or declined one has no token any more). */
  byToken(tokenHash: string): Promise<CareGrantRow | undefined> {
    return this.select().where('g.token_hash', '=', tokenHash).where('g.kind', '=', 'invitation').executeTakeFirst();
  }

  /**
   * Accepts an invitation, once: of parallel requests with one token only one finds it still
   * pending and unexpired. Throws the unique violation when the account already holds a live
   * grant of the patient (patient_grants_live_grantee).
   */
  async accept(tokenHash: string, userId: number): Promise<{ id: number; patient_id: number; access: 'full' | 'read-only' } | undefined> {
    return this.db
      .updateTable('patient_grants')
      .set({ status: 'active', grantee_user_id: userId, accepted_at: sql`now()`, token_hash: null, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('token_hash', '=', tokenHash)
      .where('status', '=', 'pending')
      .where('expires_at', '>', sql<Date>`now()`)
      .returning(['id', 'patient_id', 'access'])
      .executeTakeFirst();
  }

  /** Declines an invitation, once (an expired one may still be declined). */
  async decline(tokenHash: string): Promise<{ id: number; patient_id: number } | undefined> {
    return this.db
      .updateTable('patient_grants')
      .set({ status: 'declined', token_hash: null, ended_at: sql`now()`, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('token_hash', '=', tokenHash)
      .where('status', '=', 'pending')
      .returning(['id', 'patient_id'])
      .executeTakeFirst();
  }

  /** The active grants a user holds, with their patients (names as for any patient). */
  held(userId: number, patientId?: number): Promise<HeldGrantRow[]> {
    let query = this.db
      .selectFrom('patient_grants as g')
      .innerJoin('patients as p', 'p.id', 'g.patient_id')
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .select(patientColumns('p', 'u'))
      .select(['g.id as grant_id', 'g.kind as grant_kind', 'g.access as grant_access', 'g.categories as grant_categories', sql<Date>`coalesce(g.accepted_at, g.created_at)`.as('grant_since')])
      .where('g.org_id', '=', this.scope.orgId)
      .where('p.org_id', '=', this.scope.orgId)
      .where('g.grantee_user_id', '=', userId)
      .where('g.status', '=', 'active');
    if (patientId !== undefined) query = query.where('g.patient_id', '=', patientId);
    return query.orderBy('g.created_at').orderBy('g.id').$castTo<HeldGrantRow>().execute();
  }

  /** An account of the organisation, to write to. */
  contact(userId: number): Promise<ContactRow | undefined> {
    return this.db
      .selectFrom('users as u')
      .innerJoin('organizations as o', 'o.id', 'u.org_id')
      .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.settings', 'o.org_name', 'o.name as client_id'])
      .where('u.org_id', '=', this.scope.orgId)
      .where('u.id', '=', userId)
      .executeTakeFirst() as Promise<ContactRow | undefined>;
  }

  /** Whether an address has an account in the organisation. */
  async hasAccount(email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('org_id', '=', this.scope.orgId)
      .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`)
      .executeTakeFirst();
    return !!row;
  }

  /**
   * A patient's audit trail as others made it: every row about the patient whose actor is not the
   * patient's own account (care network, providers, share recipients), newest first; refusals too.
   */
  /**
   * "Who saw my record", a page of lines: the events on the patient's trail by anyone but the
   * patient, grouped by day in the reader's time zone (`timeZone`, an IANA name), person or
   * share, action, outcome and the part of the record they reached; the latest line first.
   */
  async accessLog(patientId: number, patientUserId: number, limit: number, offset: number, timeZone: string): Promise<{ count: number; rows: AccessLogRow[] }> {
    const shareId = sql<number | null>`case when jsonb_typeof(l.detail->'share') = 'number' then (l.detail->>'share')::int end`;
    // What of the record an event reached, as far as its sentence and detail say it.
    const part = sql<string>`concat_ws('|', l.detail->>'category', l.detail->>'what', l.detail ? 'document', l.detail ? 'summary', l.detail ? 'fhir_export')`;
    const day = sql<string>`(l.at at time zone ${timeZone})::date`;
    const grouped = this.db
      .selectFrom('audit_log as l')
      .where('l.org_id', '=', this.scope.orgId)
      .where('l.subject', '=', `patient:${patientId}`)
      // The partial index of the patients' trails (migration 0024) serves it.
      .where(sql<boolean>`l.subject like 'patient:%'`)
      .where(sql<boolean>`l.actor_user_id is distinct from ${patientUserId}`)
      // The patient's own calendar subscription (their private feed address) is not someone else.
      .where('l.action', '<>', 'calendar_feed_read')
      // The policy's own "let in" row of every non-owner request (patients.service grant) goes with
      // the route's own row (record_read, document_read, chat_read…), which says what was seen:
      // the log shows that one. Refusals by the policy stay.
      .where((eb) => eb.or([eb('l.action', '<>', 'patient_access'), eb('l.outcome', '<>', 'success')]))
      .select([
        sql<number>`max(l.id)`.as('id'),
        sql<Date>`max(l.at)`.as('at'),
        sql<Date>`min(l.at)`.as('first_at'),
        sql<number>`count(*)::int`.as('count'),
        'l.action',
        'l.outcome',
        'l.actor_user_id',
        sql<number | null>`${shareId}`.as('share_id'),
        sql<Record<string, unknown>>`(array_agg(l.detail order by l.id desc))[1]`.as('detail'),
      ])
      .groupBy(['l.action', 'l.outcome', 'l.actor_user_id', sql`${shareId}`, sql`${part}`, sql`${day}`]);
    const [counted, rows] = await Promise.all([
      this.db.selectFrom(grouped.as('g')).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      this.db
        .selectFrom(grouped.as('g'))
        .leftJoin('users as u', (join) => join.onRef('u.id', '=', 'g.actor_user_id').on('u.org_id', '=', this.scope.orgId))
        .leftJoin('shares as s', (join) => join.onRef('s.id', '=', 'g.share_id').on('s.org_id', '=', this.scope.orgId).on('s.patient_id', '=', patientId))
        .select([
          'g.id',
          'g.at',
          'g.first_at',
          'g.count',
          'g.action',
          'g.outcome',
          'g.actor_user_id',
          'g.detail',
          'u.first_name as actor_first_name',
          'u.last_name as actor_last_name',
          's.recipient_name as share_recipient',
          sql<boolean>`exists (select 1 from patient_grants pg where pg.org_id = ${this.scope.orgId} and pg.patient_id = ${patientId} and pg.grantee_user_id = g.actor_user_id)`.as('actor_in_network'),
        ])
        .orderBy('g.at', 'desc')
        .orderBy('g.id', 'desc')
        .limit(limit)
        .offset(offset)
        .$castTo<AccessLogRow>()
        .execute(),
    ]);
    return { count: Number(counted.n), rows };
  }
}

/** Invitations found by their token alone, whatever the organisation (public preview and sign-up: the token is the proof). */
export class PublicCareInvitationsRepository {
  constructor(private readonly db: Db) {}

  byToken(tokenHash: string): Promise<CareGrantRow | undefined> {
    return this.db
      .selectFrom('patient_grants as g')
      .leftJoin('users as a', 'a.id', 'g.grantee_user_id')
      .select(GRANT_COLUMNS)
      .where('g.token_hash', '=', tokenHash)
      .where('g.kind', '=', 'invitation')
      .$castTo<CareGrantRow>()
      .executeTakeFirst();
  }
}
