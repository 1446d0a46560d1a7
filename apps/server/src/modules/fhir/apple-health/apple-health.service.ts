import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import {
  APPLE_HEALTH_MAX_MEASUREMENTS,
  firstZone,
  isTimeZone,
  translate,
  type AppleHealthImport,
  type AppleHealthMeasurementsBody,
  type AppleHealthQuery,
  type Language,
} from '@healthbook/shared';
import type { SignedInContext } from '../../../context';
import type { Db } from '../../../db/client';
import { FieldError, HttpError, notFound } from '../../../lib/http-errors';
import { servicePlugin } from '../../../lib/service-plugin';
import { sliceClock } from '../../../lib/slices';
import type { AuditLog } from '../../audit/audit.service';
import type { PatientScope } from '../../patients/patient-scope';
import type { PatientsService } from '../../patients/patients.service';
import { assertRoomForRecords } from '../../records/records.limits';
import { RecordsRepository } from '../../records/records.repository';
import { exportMapping, recordToResource, SYSTEMS, type FhirJson } from '../fhir.mapping';
import { stringifyBundle } from '../fhir.import-limits';
import { fhirWriteContext, KnownRecords, type FhirService } from '../fhir.service';
import { AppleHealthExportError, readAppleHealthExport, type AppleHealthExport, type BiometricMeasure } from './apple-health';
import { AppleHealthImportsRepository, AppleHealthJobRepository, HEARTBEAT_STALE_S, type AppleHealthImportRow } from './apple-health.repository';
import { isDstu2, upgradeDstu2 } from './dstu2';

/** A reading kept between the reading and the import: [measure, value, diastolic, day, instant]. */
type StoredReading = [BiometricMeasure, number, number | null, string, string];

/** Progress written at most this often (and a heartbeat with it). */
const PROGRESS_EVERY_MS = 1000;
/** Readings added per FHIR import: each a transaction of its own, short enough not to keep other requests waiting on the embedded database. */
const IMPORT_CHUNK = 250;

interface Started {
  ctx: SignedInContext;
  grant: PatientScope;
  thin: 'day' | 'none';
  timeZone: string;
}

/**
 * An Apple Health export imported (issue 28 §4). The upload is streamed to a temporary file by
 * the route (lib/multipart.ts saveUpload), then read in the background by the process that received it (apple-health.ts: the
 * zip at random, the XML as a stream, in slices of the event loop), one export at a time per
 * process. Its progress and outcome are kept in `apple_health_imports`, so that the page that
 * follows it may ask any process. Once read:
 *
 * - the clinical records (FHIR R4, or DSTU2 upgraded to R4: dstu2.ts) wait as a Bundle for the
 *   FHIR import's preview and accept, the one import there is;
 * - the readings (thinned to one a day per measurement unless asked) wait for the patient's
 *   choice of measurements, then are added as biometrics through the same FHIR import, a chunk at
 *   a time, each reading identified (`urn:healthbook:apple-health`) so that the same export
 *   imported again adds nothing.
 *
 * The temporary file is removed once read, whatever the outcome; the row a day after it was last
 * touched (cleanup.ts). A process that ends mid-way leaves a row whose heartbeat stops: it is told
 * as interrupted.
 */
export class AppleHealthService {
  private readonly shutdown = new AbortController();
  private readonly running = new Set<Promise<void>>();
  /** One export read at a time in this process: the others wait their turn (progress 0). */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly deps: { patients: PatientsService; fhir: FhirService; audit: AuditLog; log: FastifyBaseLogger },
  ) {}

  /**
   * Whose record, and how it is read: checked before a byte of the file is taken, and whether an
   * import of the patient's is under way (409 now, rather than after gigabytes were sent; `start`
   * decides for sure).
   */
  async open(ctx: SignedInContext, query: AppleHealthQuery): Promise<Started> {
    if (query.time_zone !== undefined && !isTimeZone(query.time_zone)) throw new FieldError({ time_zone: ['validation:timeZoneInvalid'] });
    const grant = await this.deps.patients.open(ctx, 'records', query.patient, 'write');
    if (await new AppleHealthImportsRepository(this.db, grant).underWay()) throw new HttpError(409, 'errors:appleHealthBusy');
    return { ctx, grant, thin: query.thin ?? 'day', timeZone: firstZone(grant.patient.time_zone, query.time_zone) };
  }

  /**
   * The uploaded file (at `path`) becomes an import, read in the background, the file removed
   * after; 409 while another of the patient's is under way (two uploads at once make one). Answers
   * the import as it is now (reading).
   */
  async start(started: Started, fileName: string, path: string): Promise<AppleHealthImport> {
    const { ctx, grant, thin, timeZone } = started;
    const repo = new AppleHealthImportsRepository(this.db, grant);
    const row = await repo.start({ created_by: ctx.actor.userId, file_name: fileName.slice(0, 200) || 'export.zip', thin, time_zone: timeZone });
    if (!row) {
      await rm(path, { force: true });
      throw new HttpError(409, 'errors:appleHealthBusy');
    }
    await grant.auditChange(ctx, 'document_convert', { format: 'apple-health', import: row.id });
    // Waiting its turn behind another export, the row's heartbeat is kept (else it would be told as interrupted).
    const job = new AppleHealthJobRepository(this.db);
    const waiting = setInterval(() => void job.progress(row.id, 0, 0).catch(() => undefined), (HEARTBEAT_STALE_S * 1000) / 3);
    waiting.unref();
    const run = this.queue.then(() => {
      clearInterval(waiting);
      return this.readJob(started, row.id, path);
    });
    this.queue = run.catch(() => undefined);
    this.track(run);
    return present(row, ctx.lang);
  }

  async get(ctx: SignedInContext, id: number, patient?: number): Promise<AppleHealthImport> {
    const grant = await this.deps.patients.open(ctx, 'records', patient, 'write');
    const repo = new AppleHealthImportsRepository(this.db, grant);
    await repo.markInterrupted();
    const row = await repo.find(id);
    if (!row) throw notFound();
    // What the export holds, counted, is the patient's data: a carer's look is on their trail.
    await grant.auditRead(ctx, { apple_health_import: id });
    return present(row, ctx.lang);
  }

  /** The clinical records as a FHIR R4 Bundle (serialised), for the FHIR import's preview and accept. */
  async clinical(ctx: SignedInContext, id: number, patient?: number): Promise<string> {
    const grant = await this.deps.patients.open(ctx, 'records', patient, 'write');
    const row = await new AppleHealthImportsRepository(this.db, grant).clinical(id);
    if (!row) throw notFound();
    await grant.auditRead(ctx, { apple_health_import: id, clinical: 1 });
    if (row.clinical === null || row.clinical === undefined) throw new HttpError(409, 'errors:appleHealthNotRead');
    // Kept as the text it was written as (jsonb answers it parsed: serialised again in slices).
    return `{"bundle":${await stringifyBundle(row.clinical as never)}}`;
  }

  /** The readings of the chosen measurements added as biometrics, in the background: once (a second request is 409). */
  async importMeasurements(ctx: SignedInContext, id: number, body: AppleHealthMeasurementsBody, patient?: number): Promise<AppleHealthImport> {
    const grant = await this.deps.patients.open(ctx, 'records', patient, 'write');
    const repo = new AppleHealthImportsRepository(this.db, grant);
    const row = await repo.find(id);
    if (!row) throw notFound();
    if (row.status !== 'ready') throw new HttpError(409, 'errors:appleHealthNotReady');
    const measures = new Set<BiometricMeasure>(body.measures);
    const counts = row.counts as AppleHealthImport['counts'];
    const total = body.measures.reduce((sum, m) => sum + (counts?.measures[m]?.kept ?? 0), 0);
    // Refused before anything is added when they cannot all fit (duplicates among them counted too).
    await assertRoomForRecords(new RecordsRepository(this.db, grant), total, 'import');
    const claimed = await repo.claimMeasurements(id, total);
    if (!claimed) throw new HttpError(409, 'errors:appleHealthNotReady');
    const readings = ((claimed.measurements ?? []) as StoredReading[]).filter((r) => measures.has(r[0]));
    // Asked now (each chunk's import is audited as it is added).
    await grant.auditChange(ctx, 'fhir_import', { format: 'apple-health', import: id, readings: readings.length });
    this.track(this.importJob(ctx, grant, { id, thin: row.thin, measures: [...measures] }, readings));
    const now = await repo.find(id);
    if (!now) throw notFound();
    return present(now, ctx.lang);
  }

  async discard(ctx: SignedInContext, id: number, patient?: number): Promise<void> {
    const grant = await this.deps.patients.open(ctx, 'records', patient, 'write');
    if (!(await new AppleHealthImportsRepository(this.db, grant).remove(id))) throw notFound();
    await grant.auditChange(ctx, 'import_discard', { format: 'apple-health', import: id });
  }

  /** Work under way is told to stop and awaited (the process is closing; its rows read as interrupted). */
  async stop(): Promise<void> {
    this.shutdown.abort();
    await Promise.allSettled([...this.running]);
  }

  /** Waits for the background work of this process (tests). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running]);
  }

  private track(run: Promise<void>) {
    const tracked = run.catch((err: unknown) => this.deps.log.error({ err }, 'apple health import failed')).finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  private async readJob({ thin, timeZone }: Started, id: number, path: string): Promise<void> {
    const job = new AppleHealthJobRepository(this.db);
    const abort = new AbortController();
    const onShutdown = () => abort.abort();
    this.shutdown.signal.addEventListener('abort', onShutdown);
    const progress = throttledProgress(job, id, abort);
    try {
      // The process closed while this one waited its turn: interrupted, as a reading cut short is.
      if (this.shutdown.signal.aborted) abort.abort();
      abort.signal.throwIfAborted();
      await job.progress(id, 0, 0);
      const read = await readAppleHealthExport(path, { thin, timeZone, maxMeasurements: APPLE_HEALTH_MAX_MEASUREMENTS, signal: abort.signal, onProgress: progress.report });
      await progress.flush();
      const clinical = await clinicalBundle(read);
      const stored: StoredReading[] = read.measurements.map((m) => [m.measure, m.value, m.diastolic ?? null, m.day, m.at]);
      const counts = presentCounts(read, clinical.failed);
      await job.finish(id, {
        status: 'ready',
        counts: JSON.stringify(counts),
        clinical: await stringifyBundle(clinical.bundle as never),
        measurements: JSON.stringify(stored),
      });
    } catch (err) {
      const code = err instanceof AppleHealthExportError ? err.code : abort.signal.aborted ? 'interrupted' : 'unreadable';
      if (!(err instanceof AppleHealthExportError) && !abort.signal.aborted) this.deps.log.error({ err }, 'apple health export could not be read');
      await job.finish(id, { status: 'failed', error_code: code, clinical: null, measurements: null });
    } finally {
      this.shutdown.signal.removeEventListener('abort', onShutdown);
      await rm(path, { force: true });
    }
  }

  private async importJob(ctx: SignedInContext, grant: PatientScope, imp: { id: number; thin: 'day' | 'none'; measures: BiometricMeasure[] }, readings: StoredReading[]): Promise<void> {
    const job = new AppleHealthJobRepository(this.db);
    const mapping = exportMapping('biometrics');
    const write = fhirWriteContext(ctx.lang);
    const result = { imported: 0, duplicates: 0, skipped: 0, invalid: 0, measures: imp.measures };
    const clock = sliceClock();
    // The record as the chunks compare their readings with it: read once, kept up to date by each.
    const known = new KnownRecords();
    try {
      for (let start = 0; start < readings.length; start += IMPORT_CHUNK) {
        if (this.shutdown.signal.aborted) throw new Error('the process is closing');
        const entry: Array<{ resource: FhirJson }> = [];
        for (const [measure, value, diastolic, day, at] of readings.slice(start, start + IMPORT_CHUNK)) {
          const resource = recordToResource(mapping, { measure, value, ...(diastolic !== null ? { diastolic } : {}), measured_on: day }, write);
          entry.push({ resource: { ...resource, identifier: [{ system: SYSTEMS.appleHealth, value: `${measure}/${imp.thin === 'day' ? day : at}` }] } });
          await clock.pause();
        }
        const done = await this.deps.fhir.import(ctx, { bundle: { resourceType: 'Bundle', type: 'collection', entry }, accept: entry.map((_, i) => `${i}:Observation`), patient: grant.patient.id }, known);
        result.imported += done.imported;
        result.duplicates += done.duplicates;
        result.skipped += done.skipped;
        result.invalid += done.invalid;
        // Discarded meanwhile: what was added stays (each chunk is whole), the rest is not added.
        if (!(await job.progress(imp.id, Math.min(start + IMPORT_CHUNK, readings.length), readings.length))) return;
      }
      await job.finish(imp.id, { status: 'done', measurements: null, result: JSON.stringify(result) });
    } catch (err) {
      if (!this.shutdown.signal.aborted) this.deps.log.error({ err }, 'apple health measurements could not be imported');
      await job.finish(imp.id, { status: 'failed', error_code: 'import_failed', measurements: null, result: JSON.stringify(result) });
    }
  }
}

/** Progress at most every PROGRESS_EVERY_MS; a row gone (discarded) aborts the reading. */
function throttledProgress(job: AppleHealthJobRepository, id: number, abort: AbortController) {
  let last = 0;
  let pending: Promise<void> = Promise.resolve();
  let latest: [number, number] = [0, 0];
  const write = () => {
    const [done, total] = latest;
    pending = pending.then(async () => {
      if (!(await job.progress(id, done, total))) abort.abort();
    });
  };
  return {
    report(done: number, total: number) {
      latest = [done, total];
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS) return;
      last = now;
      write();
    },
    async flush() {
      write();
      await pending;
      if (abort.signal.aborted) throw new Error('discarded');
    },
  };
}

/** The clinical records as one R4 collection Bundle: DSTU2 ones upgraded, those that cannot be counted as failed. */
async function clinicalBundle(read: AppleHealthExport): Promise<{ bundle: { resourceType: 'Bundle'; type: 'collection'; entry: Array<{ resource: FhirJson }> }; failed: number }> {
  const entry: Array<{ resource: FhirJson }> = [];
  let failed = 0;
  const clock = sliceClock();
  for (const resource of read.clinical) {
    if (isDstu2(resource)) {
      const upgraded = upgradeDstu2(resource);
      if ('skip' in upgraded) {
        failed++;
        if (read.counts.problems.length < 50) read.counts.problems.push(`clinical: ${upgraded.skip}`);
      } else entry.push({ resource: upgraded.resource });
    } else entry.push({ resource });
    await clock.pause();
  }
  return { bundle: { resourceType: 'Bundle', type: 'collection', entry }, failed };
}

function presentCounts(read: AppleHealthExport, upgradeFailed: number): NonNullable<AppleHealthImport['counts']> {
  const range = new Map<BiometricMeasure, { from: string; to: string }>();
  for (const m of read.measurements) {
    const r = range.get(m.measure);
    if (!r) range.set(m.measure, { from: m.day, to: m.day });
    else {
      if (m.day < r.from) r.from = m.day;
      if (m.day > r.to) r.to = m.day;
    }
  }
  const measures = Object.fromEntries(
    Object.entries(read.counts.measures).map(([m, c]) => [m, { ...c, from: range.get(m as BiometricMeasure)?.from ?? null, to: range.get(m as BiometricMeasure)?.to ?? null }]),
  ) as NonNullable<AppleHealthImport['counts']>['measures'];
  return {
    measures,
    clinical: { read: read.counts.clinical.read - upgradeFailed, failed: read.counts.clinical.failed + upgradeFailed },
    problems: read.counts.problems,
  };
}

const ERROR_KEYS: Record<string, string> = {
  not_zip: 'errors:appleHealthNotZip',
  no_health_data: 'errors:appleHealthNoData',
  too_large: 'errors:appleHealthTooLarge',
  too_many: 'errors:appleHealthTooMany',
  interrupted: 'errors:appleHealthInterrupted',
  import_failed: 'errors:appleHealthImportFailed',
  unreadable: 'errors:appleHealthUnreadable',
};

function present(row: Omit<AppleHealthImportRow, 'clinical' | 'measurements'>, lang: Language): AppleHealthImport {
  const result = row.result as (AppleHealthImport['measurements'] & { skipped?: number }) | null;
  return {
    id: row.id,
    status: row.status,
    file_name: row.file_name,
    thin: row.thin,
    time_zone: row.time_zone,
    progress: { done: Number(row.progress_done), total: Number(row.progress_total) },
    error: row.error_code
      ? { code: row.error_code, message: translate(lang, ERROR_KEYS[row.error_code] ?? ERROR_KEYS.unreadable!, { max: APPLE_HEALTH_MAX_MEASUREMENTS.toLocaleString(lang), imported: result?.imported ?? 0 }) }
      : null,
    counts: (row.counts as AppleHealthImport['counts']) ?? null,
    measurements: result ? { imported: result.imported, duplicates: result.duplicates, skipped: result.skipped ?? 0, invalid: result.invalid, measures: result.measures } : null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    appleHealth: AppleHealthService;
  }
}

export default servicePlugin('appleHealth', ['db', 'patients-service', 'fhir-service', 'audit-service'], (app) => {
  const service = new AppleHealthService(app.db, { patients: app.patients, fhir: app.fhir, audit: app.audit, log: app.log });
  app.addHook('onClose', async () => service.stop());
  return service;
});
