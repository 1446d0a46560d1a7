import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CATEGORIES, EXPORT_TTL_S, type CategoryDefinition, type ExportInput, type ExportLink } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import type { Db } from '../../db/client';
import { orgScope } from '../../db/scope';
import { randomToken, sha256 } from '../../lib/crypto';
import { FieldError, notFound } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import type { Storage } from '../../plugins/storage';
import type { AuditLog } from '../audit/audit.service';
import type { OrganizationsService } from '../organizations/organizations.service';
import { type PatientsService } from '../patients/patients.service';
import { RecordsRepository } from '../records/records.repository';
import { presentResult } from '../surveys/surveys.presenter';
import type { SurveysService } from '../surveys/surveys.service';
import { presentCardDetails } from '../insurance/insurance.presenter';
import { InsuranceRepository } from '../insurance/insurance.repository';
import type { JournalService } from '../journal/journal.service';
import { ExportsRepository } from './export.repository';
import type { PdfInput } from './pdf';
import { assertNoPdfInProgress, renderPdf } from './pdf-render';

/** The address of an export's PDF (relative to the API's origin, as the web app calls it). */
export const exportFilePath = (token: string) => `/api/v1/hr/export/${token}/`;

/**
 * Private ("for my eyes only") records are in an export when the owner asks for them; for
 * anyone else they do not exist (as in every list), so asking for them changes nothing.
 */

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

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

  async create(ctx: SignedInContext, body: ExportInput): Promise<ExportLink> {
    const errors: Record<string, string[]> = {};
    const timeZone = body.time_zone ?? 'UTC';
    if (!isTimeZone(timeZone)) errors.time_zone = ['validation:timeZoneInvalid'];
    if (body.date_from && body.date_to && body.date_to < body.date_from) errors.date_to = ['validation:end-before-start'];
    if (Object.keys(errors).length > 0) throw new FieldError(errors);

    const grant = await this.patients.open(ctx, 'records', body.patient);
    assertNoPdfInProgress(grant.patient.id);
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

    const org = await this.organizations.findById(grant.patient.org_id);
    const pdf = await renderPdf(grant.patient.id, {
      lang,
      timeZone,
      generatedAt: new Date(),
      organization: { name: org?.org_name ?? '', logo: org ? await readLogo(this.storage, org, ctx.log) : null },
      patient: { first_name: grant.patient.first_name ?? '', last_name: grant.patient.last_name ?? '', dob: grant.patient.dob },
      sections,
      assessments,
      journal,
      insurance,
    });

    const token = randomToken();
    const key = `exports/${grant.patient.org_id}/${randomUUID()}.pdf`;
    await this.storage.put(key, pdf);
    let saved: { id: number; expires_at: Date };
    try {
      saved = await new ExportsRepository(this.db, orgScope(ctx.actor.orgId)).insert({
        user_id: ctx.actor.userId,
        patient_id: grant.patient.id,
        token_hash: sha256(token),
        storage_key: key,
        records: rows.length + assessments.length + journal.length + insurance.length,
        expires_at: new Date(Date.now() + EXPORT_TTL_S * 1000),
      });
    } catch (err) {
      await this.storage.delete(key).catch((e: unknown) => ctx.log.warn({ err: e, key }, 'export file not deleted'));
      throw err;
    }
    await this.audit.record(ctx, {
      action: 'record_export',
      outcome: 'success',
      subject: `patient:${grant.patient.id}`,
      detail: { export: saved.id, format: 'pdf', categories: [...types].join(','), records: rows.length, assessments: assessments.length, journal: journal.length, insurance: insurance.length, private: includePrivate, selected: body.record_ids?.length ?? null },
    });
    return { url: exportFilePath(token), expires_at: saved.expires_at.toISOString(), records: rows.length + assessments.length + journal.length + insurance.length };
  }

  /** The PDF a link opens: for the user who made it, while it lives; anything else is 404 alike. */
  async file(ctx: SignedInContext, token: string): Promise<{ data: Buffer; fileName: string }> {
    const row = await new ExportsRepository(this.db, orgScope(ctx.actor.orgId)).findLive(sha256(token));
    if (row && row.user_id !== ctx.actor.userId) {
      await this.audit.record(ctx, { action: 'record_export_open', outcome: 'denied', subject: `patient:${row.patient_id}`, detail: { export: row.id } });
    }
    if (!row || row.user_id !== ctx.actor.userId) throw notFound();
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
