import { formatMoment, type DocumentDto, type FhirConvertBody, type FhirConvertResult } from '@healthbook/shared';
import type { SignedInContext } from '../../context';
import { HttpError } from '../../lib/http-errors';
import { servicePlugin } from '../../lib/service-plugin';
import { PoolFullError, WorkerPool } from '../../lib/worker-pool';
import type { AuditLog } from '../audit/audit.service';
import type { DocumentsService } from '../documents/documents.service';
import type { FeaturesService } from '../features/features.service';
import type { PatientsService } from '../patients/patients.service';
import type { CcdaJob, CcdaProblem, CcdaResult } from './ccda';

/**
 * Documents a patient already has, read into a FHIR Bundle for the one import there is
 * (POST /api/v1/fhir/import/: its preview, then its accept). Today a C-CDA (ccda.ts).
 *
 * The converter is synchronous and grows with the document (about 250 ms for 1.2 MB, 1 s for
 * 6 MB, on this machine): it runs in a worker thread, never on the event loop.
 *
 * The original is kept in the Document Center when the import is accepted, not when it is
 * converted: the client asks for it (`keep_document`) once the patient has accepted the
 * preview, so that a preview writes nothing, and a document looked at then dropped leaves no
 * copy behind. It is kept whatever the converter made of it: what the converter cannot read
 * (sections without a mapping, narrative text, attachments) is never lost. Beside it goes a
 * readable copy (a PDF of its sections' narrative, ccda-pdf.ts), which the Document Center
 * shows where it only offers the XML as a download.
 */
/** Conversions waiting beyond what the pool takes are refused (503): try again after this. */
const RETRY_AFTER_S = 10;

export class FhirDocumentsService {
  private readonly pool = new WorkerPool<CcdaJob, CcdaResult>({ name: 'ccda', source: new URL('./ccda.worker.ts', import.meta.url), bundle: 'ccda.worker' });

  constructor(
    private readonly patients: PatientsService,
    private readonly documents: DocumentsService,
    private readonly features: FeaturesService,
    private readonly audit: AuditLog,
  ) {}

  /**
   * The document as a FHIR Bundle, and with `keep_document` its original kept in the Document
   * Center: the answer (a FhirConvertResult) serialised, the Bundle as the worker wrote it.
   */
  async convert(ctx: SignedInContext, body: FhirConvertBody): Promise<string> {
    // Whose record: the import's own decision (a patient the actor may not write into is 404).
    const grant = await this.patients.open(ctx, 'records', body.patient, 'write');
    if (body.keep_document) await this.features.require(ctx, 'document-center');
    const fileName = body.file_name?.trim() || 'ccda.xml';
    const conversion = await this.run({ xml: body.document, ...(body.keep_document ? { copy: { lang: ctx.lang, fileName, madeAt: formatMoment(new Date(), ctx.lang, 'UTC') } } : {}) });
    const kept: DocumentDto[] = [];
    if (body.keep_document) {
      // The same document imported again (more of its entries accepted later) is kept once.
      const original = await this.documents.keepImported(ctx, { data: Buffer.from(body.document, 'utf8'), fileName, contentType: 'application/xml' }, grant.patient.id, { once: true });
      kept.push(original.document);
      // Beside it, its readable copy (the Document Center shows a PDF; the XML it offers as a download).
      if (original.stored && conversion.pdf) kept.push((await this.documents.keepImported(ctx, { data: Buffer.from(conversion.pdf.buffer, conversion.pdf.byteOffset, conversion.pdf.byteLength), fileName, contentType: 'application/pdf' }, grant.patient.id)).document);
    }
    await this.audit.record(ctx, { action: 'document_convert', outcome: 'success', subject: `patient:${grant.patient.id}`, detail: { kept: kept.length, unconverted: conversion.unconvertedSections.length } });
    const rest: Omit<FhirConvertResult, 'bundle'> = { title: conversion.title ?? fileName, unconverted_sections: conversion.unconvertedSections, kept_documents: kept };
    // The Bundle's text goes in as it is (re-serialising megabytes would hold the event loop).
    return `{"bundle":${conversion.json},${JSON.stringify(rest).slice(1)}`;
  }

  private async run(job: CcdaJob): Promise<CcdaResult> {
    try {
      return await this.pool.run(job);
    } catch (err) {
      if (err instanceof PoolFullError) throw new HttpError(503, 'errors:ccdaBusy', { seconds: RETRY_AFTER_S }, { 'Retry-After': String(RETRY_AFTER_S) });
      const code = (err as { name?: string; code?: string }).name === 'CcdaError' ? (err as { code?: CcdaProblem }).code : undefined;
      if (code) throw new HttpError(400, `errors:${code}`);
      throw err;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    fhirDocuments: FhirDocumentsService;
  }
}

export default servicePlugin('fhirDocuments', ['patients-service', 'documents-service', 'features-service', 'audit-service'], (app) => new FhirDocumentsService(app.patients, app.documents, app.features, app.audit));
