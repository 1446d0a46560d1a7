import { sql, type Selectable } from 'kysely';
import type { Db } from '../../../db/client';
import type { AppleHealthImportsTable, AppleHealthImportStatus } from '../../../db/schema';
import type { PatientScope } from '../../patients/patient-scope';

export type AppleHealthImportRow = Selectable<AppleHealthImportsTable>;

/** Seconds without a heartbeat after which a reading or importing row is taken as interrupted (its process ended). */
export const HEARTBEAT_STALE_S = 90;

/** The Apple Health imports of one patient (the patients policy's scope, area `records`). */
export class AppleHealthImportsRepository {
  constructor(
    private readonly db: Db,
    private readonly scope: PatientScope,
  ) {}

  private mine() {
    return this.db.selectFrom('apple_health_imports').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId);
  }

  /** A row without its heavy columns (what the page polls). */
  find(id: number): Promise<Omit<AppleHealthImportRow, 'clinical' | 'measurements'> | undefined> {
    return this.mine()
      .select(['id', 'org_id', 'patient_id', 'created_by', 'file_name', 'thin', 'time_zone', 'status', 'progress_done', 'progress_total', 'error_code', 'counts', 'result', 'heartbeat_at', 'created_at', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async clinical(id: number): Promise<{ status: AppleHealthImportStatus; clinical: unknown } | undefined> {
    return this.mine().select(['status', 'clinical']).where('id', '=', id).executeTakeFirst();
  }

  /**
   * A new import, reading: refused (null) while another of the patient's is reading or importing
   * and alive. Rows whose process ended are marked interrupted first. One statement decides, so
   * two uploads at once make one row.
   */
  async start(row: { created_by: number; file_name: string; thin: 'day' | 'none'; time_zone: string }): Promise<AppleHealthImportRow | null> {
    await this.markInterrupted();
    const inserted = await sql<AppleHealthImportRow>`
      insert into apple_health_imports (org_id, patient_id, created_by, file_name, thin, time_zone)
      select ${this.scope.orgId}, ${this.scope.patientId}, ${row.created_by}, ${row.file_name}, ${row.thin}, ${row.time_zone}
      where pg_try_advisory_xact_lock(hashtext('apple_health_imports'), ${this.scope.patientId})
        and not exists (select 1 from apple_health_imports where patient_id = ${this.scope.patientId} and status in ('reading', 'importing'))
      returning *`.execute(this.db);
    return inserted.rows[0] ?? null;
  }

  /** Whether an import of the patient's is reading or importing (and alive). */
  async underWay(): Promise<boolean> {
    await this.markInterrupted();
    return (await this.mine().select('id').where('status', 'in', ['reading', 'importing']).executeTakeFirst()) !== undefined;
  }

  /** Reading or importing rows of this patient whose heartbeat stopped: failed, interrupted. */
  markInterrupted() {
    return this.db
      .updateTable('apple_health_imports')
      .set({ status: 'failed', error_code: 'interrupted', clinical: null, measurements: null, updated_at: sql`now()` })
      .where('patient_id', '=', this.scope.patientId)
      .where('status', 'in', ['reading', 'importing'])
      .where('heartbeat_at', '<', sql<Date>`now() - make_interval(secs => ${HEARTBEAT_STALE_S})`)
      .execute();
  }

  /** The readings chosen, taken once: ready → importing (null when it was not ready, e.g. a second request at once). */
  async claimMeasurements(id: number, total: number): Promise<{ measurements: unknown } | null> {
    const row = await this.db
      .updateTable('apple_health_imports')
      .set({ status: 'importing', progress_done: 0, progress_total: total, heartbeat_at: sql`now()`, updated_at: sql`now()` })
      .where('org_id', '=', this.scope.orgId)
      .where('patient_id', '=', this.scope.patientId)
      .where('id', '=', id)
      .where('status', '=', 'ready')
      .returning('measurements')
      .executeTakeFirst();
    return row ?? null;
  }

  /** Discarded (whatever its state: a process reading it stops at its next progress). */
  async remove(id: number): Promise<boolean> {
    const r = await this.db.deleteFrom('apple_health_imports').where('org_id', '=', this.scope.orgId).where('patient_id', '=', this.scope.patientId).where('id', '=', id).executeTakeFirst();
    return r.numDeletedRows > 0n;
  }
}

/** The worker's side: progress and outcome, by id (the row may have been discarded meanwhile: false). */
export class AppleHealthJobRepository {
  constructor(private readonly db: Db) {}

  async progress(id: number, done: number, total: number): Promise<boolean> {
    const r = await this.db
      .updateTable('apple_health_imports')
      .set({ progress_done: done, progress_total: total, heartbeat_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', ['reading', 'importing'])
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async finish(id: number, changes: { status: AppleHealthImportStatus; error_code?: string | null; counts?: string | null; clinical?: string | null; measurements?: string | null; result?: string | null }): Promise<boolean> {
    const r = await this.db
      .updateTable('apple_health_imports')
      .set({ ...changes, heartbeat_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('status', 'in', ['reading', 'importing'])
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /** Imports left a day after they were last touched: gone, with what they held. */
  async removeOld(hours = 24): Promise<number> {
    const r = await this.db
      .deleteFrom('apple_health_imports')
      .where('updated_at', '<', sql<Date>`now() - make_interval(hours => ${hours})`)
      .where('status', 'not in', ['reading', 'importing'])
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
