import { categoryDefinition, DOCUMENT_MAX_BYTES, type RecordValues } from '@healthbook/shared';
import type { FastifyBaseLogger } from 'fastify';
import { systemContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import type { SourceConnectionStatus, SyncRunSummary } from '../../db/schema';
import type { SecretBox } from '../../lib/crypto';
import { sliceClock, yieldToLoop } from '../../lib/slices';
import type { AuditLog } from '../audit/audit.service';
import { readResource } from '../fhir/fhir.service';
import { conceptText, type FhirJson } from '../fhir/fhir.mapping';
import { DocumentsRepository } from '../documents/documents.repository';
import type { DocumentsService } from '../documents/documents.service';
import { FieldError } from '../../lib/http-errors';
import { ownerScope } from '../patients/patient-scope';
import { PatientsRepository, type PatientRow } from '../patients/patients.repository';
import { RecordsRepository } from '../records/records.repository';
import { diff, latestToday, toStoredRecord, valuesOf } from '../records/records.service';
import { SmartGrantError, type OutboundPolicy, type SourceClient, type TokenSet } from './smart-client';
import { DEFAULT_RETRY, FhirRefused, FhirUnavailable, SourceFhir, type RetryPolicy } from './source-fhir';
import { SourceSyncJobRepository, type FhirSourceRow, type SourceConnectionRow } from './sources.repository';

/**
 * The sync of a patient's connected sources: a job (the scheduler kicks it, and "Sync now"),
 * each connection claimed by one process (SKIP LOCKED), one at a time per process. A run reads
 * the patient's resources of every type the product keeps, page by page, through the FHIR
 * mapping into the fourteen categories; each record keeps its provenance and is updated in place
 * by a later version (a new version in its history), never duplicated; what the source deleted
 * is marked, never removed. A full run reads everything (the first, one a week, "Sync now");
 * the daily one only what changed, where the source supports `_lastUpdated`.
 */

/** The searches of a run: every resource type the mapping takes, Observations by category (some EHRs require it). */
export const SYNC_SEARCHES: ReadonlyArray<{ type: string; params?: string }> = [
  { type: 'AllergyIntolerance' },
  { type: 'Condition' },
  { type: 'MedicationRequest' },
  { type: 'MedicationStatement' },
  { type: 'Immunization' },
  { type: 'Observation', params: 'category=laboratory' },
  { type: 'Observation', params: 'category=vital-signs' },
  { type: 'Observation', params: 'category=social-history' },
  { type: 'DiagnosticReport' },
  { type: 'Procedure' },
  { type: 'Encounter' },
  { type: 'FamilyMemberHistory' },
  // Documents: their attachments go to the Document Center (a folder named after the source).
  { type: 'DocumentReference' },
];

/** One line of a run's skipped list: a type, why (a message key and its values), how many. */
type SkippedGroup = SyncRunSummary['skipped'][number];
/** The most lines a run's skipped list keeps. */
const MAX_SKIPPED_GROUPS = 100;

/** Resources asked per page. */
const PAGE_SIZE = 100;
/** A full run at least this often: the only way to see what a source deleted. */
const FULL_EVERY_MS = 7 * 86_400_000;
/** An incremental run asks from a little before the last one began (clocks differ). */
const SINCE_MARGIN_MS = 5 * 60_000;

export interface SyncSettings {
  policy: OutboundPolicy;
  /** Between automatic syncs of a connection. */
  everyMs: number;
  retry?: RetryPolicy;
}

/** The key a synced record is known by: the source and the resource, whatever the connection (a reconnection finds its records again). */
export const syncKey = (sourceId: number, type: string, id: string) => `source:${sourceId}|${type}/${id}`;

export class SourceSync {
  private readonly jobs: SourceSyncJobRepository;

  constructor(
    private readonly db: Db,
    private readonly box: { tokens: SecretBox; secrets: SecretBox },
    private readonly deps: { audit: AuditLog; documents: DocumentsService },
    private readonly settings: SyncSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.jobs = new SourceSyncJobRepository(db);
  }

  /** The client side of a source, its secret opened. */
  clientOf(source: FhirSourceRow): SourceClient {
    return {
      fhir_base_url: source.fhir_base_url,
      client_id: source.client_id,
      client_secret: source.client_secret_sealed ? this.box.secrets.open(source.client_secret_sealed) : null,
      scopes: source.scopes,
      smart_configuration: source.smart_configuration as unknown as SourceClient['smart_configuration'],
    };
  }

  sealTokens(tokens: TokenSet) {
    return {
      access_token_sealed: this.box.tokens.seal(tokens.access_token),
      refresh_token_sealed: tokens.refresh_token ? this.box.tokens.seal(tokens.refresh_token) : null,
      token_expires_at: tokens.expires_at,
      scope: tokens.scope,
    };
  }

  /** Claims and runs the due connections until none is left; answers how many ran. */
  async drain(shouldStop: () => boolean): Promise<number> {
    let ran = 0;
    while (!shouldStop()) {
      const [connection] = await this.jobs.claimDue(1);
      if (!connection) break;
      await this.run(connection);
      ran++;
    }
    return ran;
  }

  /** One connection's run, from its claim to its outcome (never throws: the outcome is kept for the patient). */
  async run(connection: SourceConnectionRow): Promise<void> {
    const started = new Date();
    const heartbeat = setInterval(() => void this.jobs.extend(connection.id).catch(() => undefined), 60_000);
    heartbeat.unref();
    let outcome: { status: SourceConnectionStatus; problem: string | null; run: SyncRunSummary | null; synced: boolean; full: boolean; cursor?: string | null };
    try {
      const { summary: run, cursor } = await this.sync(connection, started);
      outcome = { status: 'up_to_date', problem: null, run, synced: true, full: run.full, cursor };
    } catch (err) {
      if (err instanceof SmartGrantError && err.kind === 'refused') {
        outcome = { status: 'needs_reconnect', problem: 'errors:sourceNeedsReconnect', run: null, synced: false, full: false };
      } else if (err instanceof FhirUnavailable || (err instanceof SmartGrantError && err.kind === 'unreachable')) {
        outcome = { status: 'failed', problem: 'errors:sourceSyncUnavailable', run: null, synced: false, full: false };
      } else {
        this.log.error({ err, connection: connection.id }, 'source sync failed');
        outcome = { status: 'failed', problem: 'errors:sourceSyncFailed', run: null, synced: false, full: false };
      }
    } finally {
      clearInterval(heartbeat);
    }
    // A failed run is tried again in an hour; a refused connection waits for the patient.
    const next = outcome.status === 'up_to_date' ? new Date(Date.now() + this.settings.everyMs) : outcome.status === 'failed' ? new Date(Date.now() + 3_600_000) : null;
    await this.jobs.finish(connection.id, { ...outcome, nextSyncAt: next });
    const run = outcome.run;
    await this.deps.audit.record(systemContext(this.log), {
      action: 'source_sync',
      outcome: 'success',
      actorUserId: null,
      orgId: connection.org_id,
      subject: `patient:${connection.patient_id}`,
      detail: run
        ? { connection: connection.id, source: connection.source_id, status: outcome.status, added: run.added, updated: run.updated, deleted: run.deleted, full: run.full }
        : { connection: connection.id, source: connection.source_id, status: outcome.status },
    });
  }

  private async sync(connection: SourceConnectionRow, started: Date): Promise<{ summary: SyncRunSummary; cursor: string | null }> {
    const source = await this.jobs.source(connection.source_id);
    const patient = await new PatientsRepository(this.db, orgScope(connection.org_id)).findById(connection.patient_id);
    if (!source || !patient || !connection.access_token_sealed) throw new SmartGrantError('refused', 'connection_gone');
    // The system's own work for the patient, on the connection they made: nobody else reads here.
    const scope = ownerScope(patient, 'records');
    const client = this.clientOf(source);
    const tokens: TokenSet = {
      access_token: this.box.tokens.open(connection.access_token_sealed),
      refresh_token: connection.refresh_token_sealed ? this.box.tokens.open(connection.refresh_token_sealed) : null,
      expires_at: connection.token_expires_at,
      scope: connection.scope,
      patient: connection.source_patient_id,
    };
    const fhir = new SourceFhir(client, tokens, this.settings.policy, (next) => this.jobs.keepTokens(connection.id, this.sealTokens(next)), this.settings.retry ?? DEFAULT_RETRY);

    const lastFull = connection.last_full_sync_at?.getTime() ?? 0;
    const supportsSince = await this.supportsLastUpdated(fhir);
    // The first run, one a week, and "Sync now" (which clears last_full_sync_at) read everything.
    const full = !supportsSince || !connection.last_synced_at || connection.last_full_sync_at === null || Date.now() - lastFull > FULL_EVERY_MS;
    // Only what changed since the source's own time of the last sync's searches (else our clock, less a margin for the difference).
    const since = full ? null : (connection.since_cursor ?? new Date(connection.last_synced_at!.getTime() - SINCE_MARGIN_MS).toISOString());
    let cursor: string | null = null;

    const summary: SyncRunSummary = { full, added: 0, updated: 0, unchanged: 0, deleted: 0, documents: 0, skipped: [], refused: [], started_at: started.toISOString(), finished_at: '' };
    const skipped = new Map<string, SkippedGroup>();
    const seen = new Set<string>();
    const today = latestToday();
    const pid = encodeURIComponent(connection.source_patient_id);

    // The patient's own resource first: the token's patient must be there to be read.
    await fhir.json(`${source.fhir_base_url}/Patient/${pid}`);

    for (const search of SYNC_SEARCHES) {
      const query = [`patient=${pid}`, search.params, `_count=${PAGE_SIZE}`, since ? `_lastUpdated=gt${encodeURIComponent(since)}` : null].filter(Boolean).join('&');
      try {
        let first = true;
        for await (const { resources, at } of fhir.pages(`${source.fhir_base_url}/${search.type}?${query}`)) {
          // The earliest first-page time of the searches: a change made while they ran is read again next time, never missed.
          if (first && at && (!cursor || Date.parse(at) < Date.parse(cursor))) cursor = at;
          first = false;
          await this.keepPage(resources, { source, scope, connection, today, summary, skipped, seen, fhir, patient });
        }
      } catch (err) {
        if (!(err instanceof FhirRefused)) throw err;
        summary.refused.push({ type: search.params ? `${search.type}?${search.params}` : search.type, status: err.status });
      }
    }

    // Only a full run that read every type sees what the source no longer has.
    if (full && summary.refused.length === 0) {
      const repo = new RecordsRepository(this.db, scope);
      const gone = (await repo.sourceRecords(source.id)).filter((r) => r.source_key && !seen.has(r.source_key)).map((r) => r.id);
      for (let i = 0; i < gone.length; i += 500) {
        await repo.markSourceDeleted(gone.slice(i, i + 500));
        await yieldToLoop();
      }
      summary.deleted = gone.length;
    }
    summary.skipped = [...skipped.values()];
    summary.finished_at = new Date().toISOString();
    return { summary, cursor };
  }

  /**
   * A DocumentReference's attachments into the Document Center, each once (its source key): the
   * bytes inline, or fetched from the source's own origin with the patient's token (an address
   * elsewhere is not followed: the token goes nowhere else). A type outside the upload allow-list
   * or a file over the limit is skipped and said.
   */
  private async keepAttachments(
    resource: FhirJson,
    key: string,
    run: { source: FhirSourceRow; connection: SourceConnectionRow; summary: SyncRunSummary; fhir: SourceFhir; patient: PatientRow },
    skip: (type: string, reason: string) => void,
  ): Promise<void> {
    const contents = (Array.isArray(resource.content) ? resource.content : []) as Array<{ attachment?: { data?: string; url?: string; title?: string; contentType?: string } }>;
    const scope = ownerScope(run.patient, 'documents');
    const keys = contents.map((_, index) => `${key}#${index}`);
    const known = await new DocumentsRepository(this.db, scope).existingSourceKeys(keys);
    for (const [index, content] of contents.entries()) {
      const attachment = content.attachment;
      const sourceKey = keys[index]!;
      if (!attachment || known.has(sourceKey)) continue;
      let data: Buffer | null = null;
      if (typeof attachment.data === 'string') data = Buffer.from(attachment.data, 'base64');
      else if (typeof attachment.url === 'string') {
        const url = run.fhir.resolve(attachment.url);
        if (!url) {
          skip('DocumentReference', 'records:sources.skipAttachmentElsewhere');
          continue;
        }
        data = await run.fhir.bytes(url, attachment.contentType ?? '*/*', DOCUMENT_MAX_BYTES);
      }
      if (!data) {
        skip('DocumentReference', 'records:sources.skipAttachmentTooLarge');
        continue;
      }
      const title = attachment.title ?? (resource.description as string | undefined) ?? conceptText(resource.type) ?? 'document';
      try {
        const row = await this.deps.documents.keepFromSource(scope, { filename: title, mimetype: attachment.contentType ?? 'application/octet-stream', data }, { folderName: run.source.name, sourceKey, userId: run.connection.created_by });
        if (row) run.summary.documents++;
      } catch (err) {
        if (!(err instanceof FieldError)) throw err;
        skip('DocumentReference', err.statusCode === 413 ? 'records:sources.skipAttachmentTooLarge' : 'records:sources.skipAttachmentType');
      }
    }
  }

  /** Whether the source's CapabilityStatement says its searches take `_lastUpdated` (else every run is a full one). */
  private async supportsLastUpdated(fhir: SourceFhir): Promise<boolean> {
    try {
      const statement = await fhir.json(fhir.resolve('metadata')!);
      const rest = Array.isArray(statement.rest) ? (statement.rest as Array<Record<string, unknown>>) : [];
      const names = (params: unknown) => (Array.isArray(params) ? (params as Array<{ name?: string }>).map((p) => p.name) : []);
      return rest.some((r) => names(r.searchParam).includes('_lastUpdated') || (Array.isArray(r.resource) && (r.resource as Array<Record<string, unknown>>).some((res) => names(res.searchParam).includes('_lastUpdated'))));
    } catch (err) {
      if (err instanceof FhirRefused) return false;
      throw err;
    }
  }

  /** One page of resources into the record, in one transaction: new ones added, newer versions updated in place, the rest touched. */
  private async keepPage(
    resources: Record<string, unknown>[],
    run: {
      source: FhirSourceRow;
      scope: ReturnType<typeof ownerScope>;
      connection: SourceConnectionRow;
      today: string;
      summary: SyncRunSummary;
      skipped: Map<string, SkippedGroup>;
      seen: Set<string>;
      fhir: SourceFhir;
      patient: PatientRow;
    },
  ): Promise<void> {
    const { source, scope, connection, today, summary, skipped, seen } = run;
    const clock = sliceClock();
    // Grouped by type and reason, with the values of the reason's words (the first seen: "<type> is not kept"), at most MAX_SKIPPED_GROUPS.
    const skip = (type: string, reason: string, vars?: Record<string, string | number>) => {
      const key = `${type}|${reason}`;
      const entry = skipped.get(key) ?? (skipped.size < MAX_SKIPPED_GROUPS ? { type, count: 0, reason, ...(vars ? { vars } : {}) } : undefined);
      if (!entry) return;
      entry.count++;
      skipped.set(key, entry);
    };
    const readings: Array<{ key: string; resource: string; version: string | null; category: string; values: RecordValues }> = [];
    for (const resource of resources as FhirJson[]) {
      await clock.pause();
      const type = String(resource.resourceType);
      const id = typeof resource.id === 'string' ? resource.id : null;
      if (!id) {
        skip(type, 'records:sources.skipNoId');
        continue;
      }
      // A resource of another patient (a source answering more than it was asked) never comes in.
      if (!ofPatient(resource, connection.source_patient_id)) {
        skip(type, 'records:sources.skipOtherPatient');
        continue;
      }
      const key = syncKey(source.id, type, id);
      seen.add(key);
      if (type === 'DocumentReference') {
        await this.keepAttachments(resource, key, run, skip);
        continue;
      }
      // References inside the resource (a contained Medication) are read; others are not fetched.
      const contained = new Map(((Array.isArray(resource.contained) ? resource.contained : []) as FhirJson[]).map((c) => [`#${String(c.id)}`, c]));
      const read = readResource(resource, { reaches: () => true, dob: scope.patient.dob, today, resolve: (ref) => contained.get(ref) });
      if (read.kind === 'skipped') {
        skip(type, read.reason.key, read.reason.vars);
        continue;
      }
      if (read.kind === 'invalid') {
        skip(type, 'records:sources.skipInvalid');
        continue;
      }
      const meta = resource.meta as { versionId?: unknown } | undefined;
      readings.push({ key, resource: `${type}/${id}`, version: typeof meta?.versionId === 'string' ? meta.versionId : null, category: read.category.key, values: read.values });
    }
    if (readings.length === 0) return;

    await this.db.transaction().execute(async (trx) => {
      const repo = new RecordsRepository(trx, scope);
      const existing = await repo.bySourceKeys(readings.map((r) => r.key));
      const unchanged: number[] = [];
      const userId = connection.created_by;
      // PGlite answers without a turn of the event loop: the page's statements are let go in slices.
      const writes = sliceClock();
      for (const reading of readings) {
        await writes.pause();
        const category = categoryDefinition(reading.category)!;
        const provenance = { sourceId: source.id, resource: reading.resource, version: reading.version };
        const current = existing.get(reading.key);
        if (!current) {
          const row = await repo.insertFromSync(toStoredRecord(category, reading.values, today), reading.key, provenance, userId);
          if (row) {
            await repo.addVersion(row.id, 1, 'create', row.data, diff({}, valuesOf(row)), userId);
            summary.added++;
          }
          continue;
        }
        const before = valuesOf(current);
        // The patient's own note and private mark are theirs: a new version of the resource keeps them.
        const hasNote = category.fields.some((f) => f.name === 'note');
        const after: RecordValues = { ...reading.values, ...(hasNote ? { note: before.note ?? reading.values.note ?? null } : {}), private: current.private };
        const changes = current.category === category.key ? diff(before, after) : [{ field: 'category', from: current.category, to: category.key }];
        if (changes.length === 0 || current.category !== category.key) {
          // The same content (or a resource that now maps elsewhere, kept as it was): only when it was read.
          unchanged.push(current.id);
          summary.unchanged++;
          continue;
        }
        const version = current.version + 1;
        const row = await repo.updateFromSync(current.id, toStoredRecord(category, after, current.sort_date ?? today, current), version, provenance, userId);
        await repo.addVersion(current.id, version, 'update', row.data, changes, userId);
        summary.updated++;
      }
      await repo.touchSynced(unchanged, { sourceId: source.id });
    });
    await yieldToLoop();
  }
}

/** The elements that name a resource's patient, by where FHIR R4 puts them. */
const PATIENT_ELEMENTS = ['subject', 'patient'] as const;

/** Whether a resource names no patient but this one (`Patient/<id>`, or an absolute address ending so). */
export function ofPatient(resource: FhirJson, patientId: string): boolean {
  for (const element of PATIENT_ELEMENTS) {
    const reference = (resource[element] as { reference?: unknown } | undefined)?.reference;
    if (typeof reference !== 'string') continue;
    const match = /(?:^|\/)Patient\/([^/]+?)(?:\/_history\/[^/]+)?$/.exec(reference);
    if (match && match[1] !== patientId) return false;
  }
  return true;
}
