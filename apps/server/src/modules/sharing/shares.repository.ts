import { sql, type Selectable } from 'kysely';
import { SHARE_MAX_ATTEMPTS, type ShareStatus } from '@healthbook/shared';
import type { Db } from '../../db/client';
import type { ShareAccessesTable, SharesTable } from '../../db/schema';
import type { PatientScope } from '../patients/patient-scope';

export type ShareRow = Selectable<SharesTable>;
export type ShareAccessRow = Selectable<ShareAccessesTable>;
export type NewShare = Omit<ShareRow, 'id' | 'org_id' | 'patient_id' | 'failed_attempts' | 'revoked_at' | 'first_opened_at' | 'created_at' | 'code_hash' | 'code_expires_at'>;

/** A share's state: revoked wins, then expired, then locked (five wrong codes). */
export function shareStatus(share: Pick<ShareRow, 'revoked_at' | 'expires_at' | 'failed_attempts'>, now = new Date()): ShareStatus {
  if (share.revoked_at) return 'revoked';
  if (new Date(share.expires_at).getTime() <= now.getTime()) return 'expired';
  if (share.failed_attempts >= SHARE_MAX_ATTEMPTS) return 'locked';
  return 'active';
}

/** One patient's shares, as the patient (or someone with full access) manages them: built for the patient's scope. */
export class SharesRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  insert(share: NewShare): Promise<ShareRow> {
    return this.db
      .insertInto('shares')
      .values({ ...share, org_id: this.scope.orgId, patient_id: this.scope.patientId })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** A patient's shares, newest first, with how often and when they were last opened. */
  listForPatient(id?: number) {
    let query = this.db
      .selectFrom('shares as s')
      .leftJoin('patients as p', 'p.id', 's.patient_id')
      .leftJoin('users as u', (join) => join.onRef('u.id', '=', 's.created_by').on('u.org_id', '=', this.scope.orgId))
      .selectAll('s')
      // Who made it, when not the patient's own account (a carer of the care network).
      .select(sql<string | null>`case when s.created_by is distinct from p.user_id then nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') end`.as('shared_by'))
      .select((eb) => [
        eb.selectFrom('share_accesses as a').whereRef('a.share_id', '=', 's.id').where('a.action', '=', 'viewed').select(sql<string>`count(*)`.as('n')).as('opened_count'),
        eb.selectFrom('share_accesses as a').whereRef('a.share_id', '=', 's.id').where('a.action', '=', 'viewed').select(sql<Date | null>`max(a.opened_at)`.as('last')).as('last_opened_at'),
      ])
      .where('s.org_id', '=', this.scope.orgId)
      .where('s.patient_id', '=', this.scope.patientId);
    if (id !== undefined) query = query.where('s.id', '=', id);
    return query.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').execute();
  }

  /** Revokes a share (a second revoke keeps the first time); ends its recipients' sessions. */
  async revoke(id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('shares')
      .set({ revoked_at: sql`coalesce(revoked_at, now())` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (row) await this.db.deleteFrom('share_sessions').where('share_id', '=', id).execute();
    return !!row;
  }

  /** A new address (and passcode) for a live share: the old ones stop, the wrong-code counter starts again, sessions end. */
  async reissue(id: number, changes: Pick<ShareRow, 'uid' | 'token_hash' | 'passcode_hash'>): Promise<ShareRow | undefined> {
    const row = await this.db
      .updateTable('shares')
      .set({ ...changes, failed_attempts: 0, code_hash: null, code_expires_at: null })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .returningAll()
      .executeTakeFirst();
    if (row) await this.db.deleteFrom('share_sessions').where('share_id', '=', id).execute();
    return row;
  }

  /** A share's openings (its recipients' addresses and browsers), the share being this patient's. */
  accesses(shareId: number): Promise<ShareAccessRow[]> {
    return this.db
      .selectFrom('share_accesses as a')
      .innerJoin('shares as s', 's.id', 'a.share_id')
      .selectAll('a')
      .where('a.share_id', '=', shareId)
      .where('s.org_id', '=', this.scope.orgId)
      .where('s.patient_id', '=', this.scope.patientId)
      .orderBy('a.opened_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(1000)
      .execute();
  }
}

/** The recipient's side: shares found by their public uid, whatever the organisation (the token is the proof). */
export class PublicSharesRepository {
  constructor(private readonly db: Db) {}

  byUid(uid: string): Promise<ShareRow | undefined> {
    return this.db.selectFrom('shares').selectAll().where('uid', '=', uid).executeTakeFirst();
  }

  /** The token hash of a share erased with its patient (a closed account), if that uid was one. */
  async erasedTokenHash(uid: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('erased_shares').select('token_hash').where('uid', '=', uid).executeTakeFirst();
    return row?.token_hash;
  }

  /**
   * Counts a try at a code before it is checked, atomically: of any number of parallel tries,
   * at most the tries left are counted (and checked). Answers the count, or null when none is left.
   */
  async takeAttempt(id: number): Promise<number | null> {
    const row = await this.db
      .updateTable('shares')
      .set({ failed_attempts: sql`failed_attempts + 1` })
      .where('id', '=', id)
      .where('failed_attempts', '<', SHARE_MAX_ATTEMPTS)
      .returning('failed_attempts')
      .executeTakeFirst();
    return row ? row.failed_attempts : null;
  }

  /** A right code gives its try back (only wrong codes count). */
  async giveBackAttempt(id: number): Promise<void> {
    await this.db.updateTable('shares').set({ failed_attempts: sql`greatest(failed_attempts - 1, 0)` }).where('id', '=', id).execute();
  }

  async setCode(id: number, codeHash: string, expiresAt: Date): Promise<void> {
    await this.db.updateTable('shares').set({ code_hash: codeHash, code_expires_at: expiresAt }).where('id', '=', id).execute();
  }

  /** The e-mailed code is used once. */
  async consumeCode(id: number, codeHash: string): Promise<boolean> {
    const row = await this.db
      .updateTable('shares')
      .set({ code_hash: null, code_expires_at: null })
      .where('id', '=', id)
      .where('code_hash', '=', codeHash)
      .where('code_expires_at', '>', sql<Date>`now()`)
      .returning('id')
      .executeTakeFirst();
    return !!row;
  }

  createSession(shareId: number, tokenHash: string, expiresAt: Date) {
    return this.db.insertInto('share_sessions').values({ share_id: shareId, token_hash: tokenHash, expires_at: expiresAt }).returning(['id', 'expires_at']).executeTakeFirstOrThrow();
  }

  /** A live session and its share (the share's own state is the caller's to judge). */
  session(tokenHash: string) {
    return this.db
      .selectFrom('share_sessions as ss')
      .innerJoin('shares as s', 's.id', 'ss.share_id')
      .selectAll('s')
      .select(['ss.id as session_id'])
      .where('ss.token_hash', '=', tokenHash)
      .where('ss.expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
  }

  async logAccess(entry: { share_id: number; session_id: string | null; action: ShareAccessRow['action']; ip: string | null; user_agent: string | null; shown: ShareAccessRow['shown'] }): Promise<void> {
    await this.db.insertInto('share_accesses').values({ ...entry, shown: JSON.stringify(entry.shown) }).execute();
  }

  /** Marks the first opening; true only for the one request that made it (the patient is told once). */
  async markFirstOpened(id: number): Promise<boolean> {
    const row = await this.db.updateTable('shares').set({ first_opened_at: sql`now()` }).where('id', '=', id).where('first_opened_at', 'is', null).returning('id').executeTakeFirst();
    return !!row;
  }

  /** Where and how to tell a share's patient: their account's address, name, language setting and organisation. */
  patientContact(share: Pick<ShareRow, 'org_id' | 'patient_id'>) {
    return this.db
      .selectFrom('patients as p')
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .innerJoin('organizations as o', 'o.id', 'p.org_id')
      .select(['u.email', 'u.settings', 'u.first_name', 'o.name as client_id', 'o.org_name'])
      .where('p.org_id', '=', share.org_id)
      .where('p.id', '=', share.patient_id)
      .executeTakeFirst();
  }

  /** Housekeeping: sessions that ended. */
  async removeEndedSessions(): Promise<number> {
    const result = await this.db.deleteFrom('share_sessions').where('expires_at', '<=', sql<Date>`now()`).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
