import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CATEGORIES, EXPORT_TTL_S, firstZone, isTimeZone, PDF_RETRY_AFTER_S, translate, type CategoryDefinition, type ExportInput, type ExportLink, type ExportStatus, type Language } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { randomToken, sha256 } from '../../lib/crypto';
import { FieldError, HttpError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { type PatientsService } from '../patients/patients.service';
import type { PatientScope } from '../patients/patient-scope';
import { RecordsRepository } from '../records/records.repository';
import { presentResult } from '../surveys/surveys.presenter';
import type { SurveysService } from '../surveys/surveys.service';
import { presentCardDetails } from '../insurance/insurance.presenter';
import { InsuranceRepository } from '../insurance/insurance.repository';
import type { JournalService } from '../journal/journal.service';
import { EXPORT_HEARTBEAT_MS, ExportsRepository, type ExportRow } from './export.repository';
import type { PdfInput } from './pdf';
import { assertNoPdfInProgress, renderPdf } from './pdf-render';

/** The address of an export's PDF (relative to the API's origin, as the web app calls it). */
export const exportFilePath = (token: string) => `/api/v1/hr/export/${token}/`;
/** The address of an export's state while it is made. */
export const exportStatusPath = (token: string) => `/api/v1/hr/export/${token}/status/`;
/** A running export's progress is written at most this often (unless it moved a tenth). */
const PROGRESS_EVERY_MS = 1_000;

const pdfInProgress = () => new HttpError(429, 'errors:pdfInProgress', { seconds: PDF_RETRY_AFTER_S }, { 'Retry-After': String(PDF_RETRY_AFTER_S) });

function presentStatus(row: Pick<ExportRow, 'status' | 'progress' | 'error' | 'records' | 'expires_at'>, token: string, lang: Language): ExportStatus {
  return {
    status: row.status,
    progress: row.status === 'done' ? 1 : row.progress,
    status_url: exportStatusPath(token),
    url: row.status === 'done' ? exportFilePath(token) : null,
    expires_at: row.expires_at.toISOString(),
    records: row.records,
    detail: row.status === 'failed' ? translate(lang, row.error ?? 'errors:exportFailed', { seconds: PDF_RETRY_AFTER_S }) : null,
  };
}

/**
 * Private ("for my eyes only") records are in an export when the owner asks for them; for
 * anyone else they do not exist (as in every list), so asking for them changes nothing.
 */

/**
 * PDF export (§4 "Record saving and leaving", issue 10): the chosen categories (optionally single
 * records, a range of their dates, private records for their owner) rendered once into a PDF
 * kept in storage; the answer is a link that opens it for its maker only, for 15 minutes
 * (EXPORT_TTL_S); anyone else, or later, gets 404. Every export is audited.
 */
export class ExportService {
  constructor(
    private readonly db: Db,
    private readonly patients: PatientsService,
    private readonly organizations: OrganizationsService,
    private readonly audit: AuditLog,
    private readonly storage: Storage,
    private readonly surveys: SurveysService,
    private readonly journal: JournalService,
  ) {}

  /**
   * Starts an export: checks the request, opens the patient's record, and claims the patient's
   * one running export (429 while another is made, in any process). Answers its state (running)
   * and the work itself, which ends in the link (or fails, the reason kept with the export).
   */
  async start(ctx: SignedInContext, body: ExportInput): Promise<{ status: ExportStatus; made: Promise<ExportLink> }> {
    const errors: Record<string, string[]> = {};
    if (body.time_zone !== undefined && !isTimeZone(body.time_zone)) errors.time_zone = ['validation:timeZoneInvalid'];
    if (body.date_from && body.date_to && body.date_to < body.date_from) errors.date_to = ['validation:end-before-start'];
    if (Object.keys(errors).length > 0) throw new FieldError(errors);

    const grant = await this.patients.open(ctx, 'records', body.patient);
    // The PDF's times are the patient's: their account's zone, else the reader's browser's, else UTC.
    const timeZone = firstZone(grant.patient.time_zone, body.time_zone);
    // Refused at once, before anything is read: a PDF of this patient is being made (here, or in another process).
    assertNoPdfInProgress(grant.patient.id);
    const repo = new ExportsRepository(this.db, orgScope(ctx.actor.orgId));
    const token = randomToken();
    const claimed = await repo.claim({ user_id: ctx.actor.userId, patient_id: grant.patient.id, token_hash: sha256(token), expires_at: new Date(Date.now() + EXPORT_TTL_S * 1000) });
    if (!claimed) throw pdfInProgress();
    const made = this.make(ctx, body, grant, timeZone, claimed.id, token, repo);
    // Its failure is kept with the export; whoever waits for it hears it too, and nobody else needs to.
    made.catch(() => undefined);
    return { status: presentStatus({ ...claimed, status: 'running', progress: 0, error: null, records: 0 }, token, ctx.lang), made };
  }

  /** The state of an export, for its maker, while its link lives; anything else is 404 alike. */
  async status(ctx: SignedInContext, token: string): Promise<ExportStatus> {
    const row = await this.ownExport(ctx, token);
    return presentStatus(row, token, ctx.lang);
  }

  /** The export's work: the records read, the PDF drawn in a worker (its progress kept), stored, audited. */
  private async make(ctx: SignedInContext, body: ExportInput, grant: PatientScope, timeZone: string, id: number, token: string, repo: ExportsRepository): Promise<ExportLink> {
    // Alive while it works (a stopped process leaves a row that goes stale, and the patient may ask again).
    const heartbeat = setInterval(() => void repo.progress(id, lastProgress).catch(() => undefined), EXPORT_HEARTBEAT_MS);
    heartbeat.unref();
    let lastProgress = 0;
    let key: string | null = null;
    try {
      // Private records: asked for, and the owner asking (a narrowed scope otherwise).
      const scope = body.include_private ? grant : grant.withoutPrivate();
      const includePrivate = scope.includePrivate;
      const types = new Set<string>(body.types);
      const rows = await new RecordsRepository(this.db, scope).listMany({
        categories: [...types],
        ids: body.record_ids,
        dateFrom: body.date_from,
        dateTo: body.date_to,
      });
      // In the categories' declared order, whatever order they were asked in.
      const sections = CATEGORIES.filter((c) => types.has(c.key)).map((c) => ({ category: c as CategoryDefinition, records: rows.filter((r) => r.category === c.key) }));

      const lang = body.language ?? ctx.lang;
      const assessments = body.assessments ? (await this.surveys.forExport(grant, { from: body.date_from, to: body.date_to })).map((row) => presentResult(row, lang)) : [];
      const journal = body.journal ? await this.journal.forExport(grant, { includePrivate, dateFrom: body.date_from, dateTo: body.date_to }) : [];
      const insurance = body.insurance ? (await new InsuranceRepository(this.db, grant).list()).map(presentCardDetails) : [];
      const records = rows.length + assessments.length + journal.length + insurance.length;
      await repo.progress(id, 0, records);

      const org = await this.organizations.findById(grant.patient.org_id);
      // Progress is kept at most every PROGRESS_EVERY_MS (a write each time), and whenever it has moved a tenth.
      let keptAt = 0;
      let kept = 0;
      const pdf = await renderPdf(
        grant.patient.id,
        {
          lang,
          timeZone,
          generatedAt: new Date(),
          organization: { name: org?.org_name ?? '', logo: org ? await readLogo(this.storage, org, ctx.log) : null },
          patient: { first_name: grant.patient.first_name ?? '', last_name: grant.patient.last_name ?? '', dob: grant.patient.dob },
          sections,
          assessments,
          journal,
          insurance,
        },
        (fraction) => {
          lastProgress = Math.min(0.99, fraction);
          if (Date.now() - keptAt < PROGRESS_EVERY_MS && lastProgress - kept < 0.1) return;
          keptAt = Date.now();
          kept = lastProgress;
          void repo.progress(id, lastProgress).catch(() => undefined);
        },
      );

      key = `exports/${grant.patient.org_id}/${randomUUID()}.pdf`;
      await this.storage.put(key, pdf);
      const saved = await repo.finish(id, { storage_key: key, records, expires_at: new Date(Date.now() + EXPORT_TTL_S * 1000) });
      if (!saved) throw new HttpError(409, 'errors:exportInterrupted');
      await this.audit.record(ctx, {
        action: 'record_export',
        outcome: 'success',
        subject: `patient:${grant.patient.id}`,
        detail: { export: id, format: 'pdf', categories: [...types].join(','), records: rows.length, assessments: assessments.length, journal: journal.length, insurance: insurance.length, private: includePrivate, selected: body.record_ids?.length ?? null },
      });
      return { url: exportFilePath(token), expires_at: saved.expires_at.toISOString(), records };
    } catch (err) {
      if (key) await this.storage.delete(key).catch((e: unknown) => ctx.log.warn({ err: e, key }, 'export file not deleted'));
      const reason = err instanceof HttpError ? err.detail : 'errors:exportFailed';
      if (!(err instanceof HttpError)) ctx.log.error({ err, export: id }, 'export failed');
      await repo.fail(id, reason).catch((e: unknown) => ctx.log.warn({ err: e, export: id }, 'export not marked failed'));
      throw err;
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** An export its maker may see (while its link lives); anyone else's, or none, is 404 alike (and another's is audited). */
  private async ownExport(ctx: SignedInContext, token: string): Promise<ExportRow> {
    const row = await new ExportsRepository(this.db, orgScope(ctx.actor.orgId)).findLive(sha256(token));
    if (row && row.user_id !== ctx.actor.userId) {
      await this.audit.record(ctx, { action: 'record_export_open', outcome: 'denied', subject: `patient:${row.patient_id}`, detail: { export: row.id } });
    }
    if (!row || row.user_id !== ctx.actor.userId) throw notFound();
    return row;
  }

  /** The PDF a link opens: for the user who made it, while it lives; anything else is 404 alike. */
  async file(ctx: SignedInContext, token: string): Promise<{ data: Buffer; fileName: string }> {
    const row = await this.ownExport(ctx, token);
    // Not made yet, or not at all: there is no PDF at this address (its status says why).
    if (row.status !== 'done' || !row.storage_key) throw notFound();
    const data = await this.storage.get(row.storage_key);
    if (!data) throw notFound();
    // A neutral name: the day it was made, nothing about whose record it is.
    return { data, fileName: `health-record-${new Date(row.created_at).toISOString().slice(0, 10)}.pdf` };
  }

}

/** An organisation's logo for a PDF; one that cannot be read leaves the PDF without it rather than without the PDF. */
export async function readLogo(storage: Storage, org: { logo_key: string | null; logo_content_type: string | null }, log: FastifyBaseLogger): Promise<PdfInput['organization']['logo']> {
  if (!org.logo_key || !org.logo_content_type) return null;
  try {
    const data = await storage.get(org.logo_key);
    return data ? { data, contentType: org.logo_content_type } : null;
  } catch (err) {
    log.warn({ err, key: org.logo_key }, 'organisation logo not read for a PDF');
    return null;
  }
}

/**
 * The hourly cleanup of exports: expired rows and their files, each removed by one process
 * (see ExportsRepository.removeExpired). A file that fails to go is logged and tried next time.
 */
export async function removeExpiredExports(db: Db, storage: Storage, log: FastifyBaseLogger): Promise<{ exports: number }> {
  const removed = await ExportsRepository.removeExpired(db, async (key) => {
    try {
      await storage.delete(key);
      return true;
    } catch (err) {
      log.warn({ err, key }, 'expired export file not deleted');
      return false;
    }
  });
  return { exports: removed };
}

declare module 'fastify' {
  interface FastifyInstance {
    exports: ExportService;
  }
}

export default servicePlugin(
  'exports',
  ['db', 'patients-service', 'organizations-service', 'audit-service', 'storage', 'surveys-service', 'journal-service'],
  (app) => new ExportService(app.db, app.patients, app.organizations, app.audit, app.storage, app.surveys, app.journal),
);
