import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';

/** What an e-mailed code is for: a sign-in (its session), an enrolment (its device), or linking this account from another one. */
export type Binding = { sessionId: string } | { deviceUuid: string } | { linkFrom: number };

/** The column a binding is stored in, and its value. */
const boundTo = (bind: Binding) =>
  'sessionId' in bind
    ? ({ column: 'session_id', value: bind.sessionId } as const)
    : 'deviceUuid' in bind
      ? ({ column: 'device_uuid', value: bind.deviceUuid } as const)
      : ({ column: 'link_from_user_id', value: bind.linkFrom } as const);

/** Second-factor devices and e-mailed codes of one organisation's users. */
export class MfaRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  /** Marks the user's unused codes of that binding used, then stores a new one (call inside a transaction). */
  async replaceCode(userId: number, bind: Binding, codeHash: string, expiresAt: Date): Promise<void> {
    const stale = this.db
      .updateTable('mfa_codes')
      .set({ used_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null);
    const bound = boundTo(bind);
    await stale.where(bound.column, '=', bound.value).execute();
    await this.db
      .insertInto('mfa_codes')
      .values({
        org_id: this.scope.orgId,
        user_id: userId,
        [bound.column]: bound.value,
        code_hash: codeHash,
        expires_at: expiresAt,
      })
      .execute();
  }

  /** Uses up a matching live code of that binding; answers whether there was one. */
  async consumeCode(userId: number, bind: Binding, codeHash: string): Promise<boolean> {
    const q = this.db
      .updateTable('mfa_codes')
      .set({ used_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`);
    const bound = boundTo(bind);
    const result = await q.where(bound.column, '=', bound.value).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  findSecret(userId: number, uuid: string) {
    return this.db
      .selectFrom('mfa_devices')
      .select(['secret_enc', 'last_used_step'])
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  /** Records the time step an authenticator code was used at, only if it is newer than the last (two requests with one code cannot both win). */
  async useStep(uuid: string, step: number): Promise<boolean> {
    const updated = await this.db
      .updateTable('mfa_devices')
      .set({ last_used_step: step })
      .where('org_id', '=', this.scope.orgId)
      .where('uuid', '=', uuid)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  async hasConfirmed(userId: number, type: 'email' | 'google'): Promise<boolean> {
    const row = await this.db
      .selectFrom('mfa_devices')
      .select('uuid')
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where('device_type', '=', type)
      .where(sql<boolean>`confirmed`)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Starts a device (unconfirmed), dropping any other unconfirmed one of the user. */
  async insertPending(userId: number, uuid: string, type: 'email' | 'google', secretEnc: string | null): Promise<void> {
    await this.db.deleteFrom('mfa_devices').where('org_id', '=', this.scope.orgId).where('user_id', '=', userId).where(sql<boolean>`not confirmed`).execute();
    await this.db.insertInto('mfa_devices').values({ uuid, org_id: this.scope.orgId, user_id: userId, device_type: type, secret_enc: secretEnc }).execute();
  }

  /** The newest device being enrolled, if any. */
  pending(userId: number) {
    return this.db
      .selectFrom('mfa_devices')
      .select(['uuid', 'device_type'])
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where(sql<boolean>`not confirmed`)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  find(userId: number, uuid: string) {
    return this.db
      .selectFrom('mfa_devices')
      .select(['uuid', 'device_type', 'confirmed'])
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where('uuid', '=', uuid)
      .executeTakeFirst();
  }

  async confirm(userId: number, uuid: string): Promise<void> {
    await this.db.updateTable('mfa_devices').set({ confirmed: true }).where('org_id', '=', this.scope.orgId).where('user_id', '=', userId).where('uuid', '=', uuid).execute();
    await this.db.deleteFrom('mfa_codes').where('org_id', '=', this.scope.orgId).where('device_uuid', '=', uuid).execute();
  }

  confirmed(userId: number) {
    return this.db
      .selectFrom('mfa_devices')
      .select(['uuid', 'device_type'])
      .where('org_id', '=', this.scope.orgId)
      .where('user_id', '=', userId)
      .where(sql<boolean>`confirmed`)
      .orderBy('created_at')
      .execute();
  }

  /** Removes one of the user's devices; answers what it was, or undefined. */
  remove(userId: number, uuid: string) {
    return this.db
      .deleteFrom('mfa_devices')
      .where('org_id', '=', this.scope.orgId)
      .where('uuid', '=', uuid)
      .where('user_id', '=', userId)
      .returning(['device_type', 'confirmed'])
      .executeTakeFirst();
  }

  /** Housekeeping (any organisation): codes spent or expired. */
  static async removeSpentCodes(db: Db): Promise<number> {
    const result = await db
      .deleteFrom('mfa_codes')
      .where((eb) => eb.or([eb('expires_at', '<', sql<Date>`now()`), eb('used_at', 'is not', null)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
