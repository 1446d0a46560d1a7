import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OrgScope } from '../../db/scope';
import type { ExportStatus } from '../../db/schema';

export interface NewExport {
  user_id: number;
  patient_id: number;
  token_hash: string;
  expires_at: Date;
}

/** What an export's maker sees of it while it is made and once it is. */
export interface ExportRow {
  id: number;
  user_id: number;
  patient_id: number;
  status: ExportStatus;
  progress: number;
  error: string | null;
  records: number;
  storage_key: string | null;
  created_at: Date;
  expires_at: Date;
}

/**
 * A running export not heard of for this long is taken for dead (its process stopped): it fails,
 * and the patient may ask for another. The export's maker touches it more often (HEARTBEAT_MS).
 */
export const EXPORT_STALE_S = 60;
export const EXPORT_HEARTBEAT_MS = 10_000;

const COLUMNS = ['id', 'user_id', 'patient_id', 'status', 'progress', 'error', 'records', 'storage_key', 'created_at', 'expires_at'] as const;

/** One organisation's PDF exports (the link's token kept as its hash only). */
export class ExportsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: OrgScope,
  ) {}

  /**
   * Starts an export of a patient: a running row, unless one of the same patient is running (in
   * any process: the partial unique index decides, so two at once get one row). A running one
   * not heard of for EXPORT_STALE_S fails first. Answers the row, or null when one is running.
   */
  async claim(row: NewExport): Promise<{ id: number; expires_at: Date } | null> {
    await this.db
      .updateTable('exports')
      .set({ status: 'failed', error: 'errors:exportInterrupted', updated_at: sql<Date>`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', row.patient_id)
      .where('status', '=', 'running')
      .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${EXPORT_STALE_S})`)
      .execute();
    const created = await this.db
      .insertInto('exports')
      .values({ org_id: this.scope.orgId, ...row, records: 0, status: 'running', progress: 0 })
      .onConflict((oc) => oc.column('patient_id').where('status', '=', 'running').doNothing())
      .returning(['id', 'expires_at'])
      .executeTakeFirst();
    return created ? { id: created.id, expires_at: new Date(created.expires_at) } : null;
  }

  /** How far a running export is (and that it is alive). */
  async progress(id: number, fraction: number, records?: number): Promise<void> {
    await this.db
      .updateTable('exports')
      .set({ progress: fraction, updated_at: sql<Date>`now()`, ...(records === undefined ? {} : { records }) })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  /** A made export: its file, and the link's life from now. Null when it is no longer running (taken for dead meanwhile). */
  async finish(id: number, done: { storage_key: string; records: number; expires_at: Date }): Promise<{ expires_at: Date } | null> {
    const row = await this.db
      .updateTable('exports')
      .set({ ...done, status: 'done', progress: 1, updated_at: sql<Date>`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .returning(['expires_at'])
      .executeTakeFirst();
    return row ? { expires_at: new Date(row.expires_at) } : null;
  }

  /** An export that could not be made, and why (a message key). */
  async fail(id: number, error: string): Promise<void> {
    await this.db
      .updateTable('exports')
      .set({ status: 'failed', error, updated_at: sql<Date>`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .execute();
  }

  /** The export a token names while it lives (expires_at in the future, by the database's clock), whoever made it, whatever its state. */
  async findLive(tokenHash: string): Promise<ExportRow | undefined> {
    const row = await this.db
      .selectFrom('exports')
      .select(COLUMNS)
      .where('org_id', '=', this.scope.orgId)
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return row && { ...row, created_at: new Date(row.created_at), expires_at: new Date(row.expires_at) };
  }

  /**
   * Removes expired exports, at most `limit`, and their files: the rows are claimed (FOR UPDATE
   * SKIP LOCKED, so each is removed by one of several processes), `removeFile` is called for each,
   * and only the rows whose file went are deleted (the others are tried again next time).
   * Across organisations: the cleanup job's own work.
   */
  static async removeExpired(db: Db, removeFile: (key: string) => Promise<boolean>, limit = 500): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const expired = await trx.selectFrom('exports').select(['id', 'storage_key']).where('expires_at', '<=', sql<Date>`now()`).orderBy('id').limit(limit).forUpdate().skipLocked().execute();
      const gone: number[] = [];
      // A running or failed export has no file (yet).
      for (const row of expired) if (row.storage_key === null || (await removeFile(row.storage_key))) gone.push(row.id);
      if (gone.length > 0) await trx.deleteFrom('exports').where('id', 'in', gone).execute();
      return gone.length;
    });
  }
}
