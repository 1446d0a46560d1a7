import { z } from 'zod';
import { CATEGORY_KEYS } from '../records/categories';
import { CHOICE_LISTS } from '../records/choices';
import { SHARE_ITEMS_MAX } from '../sharing';
import { DocumentSchema } from './documents';
import { calendarDaySchema, timeZoneSchema } from './calendar';
import { IdParamSchema, IdSchema } from './common';

/**
 * Taking the record away: a PDF of chosen categories (§4 "Record saving and leaving": the wait
 * message, then the link opens) and FHIR R4 (export as a Bundle; import of a Bundle after a
 * preview).
 */

/** POST /api/v1/hr/export/ */
export const ExportBodySchema = z
  .object({
    types: z.array(z.enum(CATEGORY_KEYS, { message: 'validation:categoryUnknown' })).max(CATEGORY_KEYS.length).default([]).describe('categories (at least one, unless assessments, journal or insurance)'),
    assessments: z.boolean().default(false).describe('the mental-health survey results too (the patient and full access only)'),
    journal: z.boolean().default(false).describe('the journal too (private entries only for their owner, with include_private)'),
    insurance: z.boolean().default(false).describe("the insurance cards' details too (never the photos)"),
    record_ids: z.array(IdSchema).max(SHARE_ITEMS_MAX).optional().describe('only these records (of the chosen types)'),
    date_from: calendarDaySchema.optional().describe("records from this day on (their own date; categories without one: when they were added)"),
    date_to: calendarDaySchema.optional(),
    include_private: z.boolean().default(false).describe('"for my eyes only" records too (off by default; the owner only)'),
    language: z.enum(['en', 'el']).optional().describe("the PDF's language (default: the request's)"),
    time_zone: z.string().max(64).optional().describe('IANA zone of the reader: the PDF’s times are written in the patient’s zone (their account’s), else in this one, else UTC, the zone named'),
    patient: IdSchema.optional(),
  })
  .refine((body) => body.types.length > 0 || body.assessments || body.journal || body.insurance, { message: 'validation:exportTypesRequired', path: ['types'] })
  .meta({ id: 'ExportBody' });
export type ExportBody = z.input<typeof ExportBodySchema>;
export type ExportInput = z.output<typeof ExportBodySchema>;

export const ExportLinkSchema = z
  .object({
    url: z.string().describe('GET it with your Authorization header within 15 minutes: the PDF (for you only; anyone else: 404)'),
    expires_at: z.string(),
    records: z.number().int().describe('records in the PDF'),
  })
  .meta({ id: 'ExportLink' });
export type ExportLink = z.infer<typeof ExportLinkSchema>;

/** An export asked for with `Prefer: respond-async` (202), and its state while its PDF is made. */
export const ExportStatusSchema = z
  .object({
    status: z.enum(['running', 'done', 'failed']),
    progress: z.number().min(0).max(1).describe('how far the PDF is, from 0 to 1'),
    status_url: z.string().describe('GET it (with your Authorization header) for this state again'),
    url: z.string().nullable().describe('once done: the PDF, as an ExportLink\'s url'),
    expires_at: z.string(),
    records: z.number().int().describe('records in the PDF (known once they are read)'),
    detail: z.string().nullable().describe('why it failed, in your language'),
  })
  .meta({ id: 'ExportStatus' });
export type ExportStatus = z.infer<typeof ExportStatusSchema>;
export const ExportFileParamsSchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, { message: 'validation:exportLinkInvalid' }) });

/** GET /api/v1/fhir/export/ */
export const FhirExportQuerySchema = z.object({
  patient: IdParamSchema.optional(),
  types: z.string().max(400).optional().describe('comma-separated categories (default: all)'),
  include_private: z.enum(['true', 'false']).optional().describe('"for my eyes only" records too (the owner only; default false)'),
  assessments: z.enum(['true', 'false']).optional().describe('survey results as QuestionnaireResponse + Observation (default true; the patient and full access only)'),
});
export type FhirExportQuery = z.output<typeof FhirExportQuerySchema>;

/** One resource of an imported Bundle, as the preview lists it. */
export const FhirImportItemSchema = z.object({
  key: z.string().describe('names the entry in `accept` (its position and resource type: "3:Condition")'),
  resource_type: z.string(),
  category: z.string().nullable().describe('the category it becomes, or null when it is skipped'),
  title: z.string(),
  date: z.string().nullable(),
  status: z.enum(['new', 'duplicate', 'skipped', 'invalid']).describe('duplicate: already in your record (imported before, or the same record); skipped: a resource type that has no category; invalid: it breaks the category’s rules'),
  reason: z.string().nullable().describe('why it is skipped or invalid'),
});
export type FhirImportItem = z.infer<typeof FhirImportItemSchema>;

/** POST /api/v1/fhir/import/: `{bundle, accept?}`; without accept, a preview (nothing is written). */
export const FhirImportBodySchema = z
  .object({
    bundle: z.looseObject({ resourceType: z.string() }).describe('a FHIR R4 Bundle (JSON)'),
    accept: z.array(z.string().max(80)).max(10_000).optional().describe('the keys to import; absent: preview only'),
    patient: IdSchema.optional(),
  })
  .meta({ id: 'FhirImportBody' });
export type FhirImportBody = z.input<typeof FhirImportBodySchema>;

export const FhirImportResultSchema = z
  .object({
    preview: z.boolean(),
    items: z.array(FhirImportItemSchema),
    imported: z.number().int(),
    duplicates: z.number().int(),
    skipped: z.number().int(),
    invalid: z.number().int(),
  })
  .meta({ id: 'FhirImportResult' });
export type FhirImportResult = z.infer<typeof FhirImportResultSchema>;

/** POST /api/v1/fhir/convert/: a document the patient has, as a FHIR Bundle for the import's preview. */
export const FhirConvertBodySchema = z
  .object({
    format: z.enum(['ccda']).describe('ccda: an HL7 C-CDA (a Continuity of Care Document, XML)'),
    document: z.string().min(1).describe('the document’s text (XML)'),
    file_name: z.string().max(200).optional().describe('the name of the file it came from (for the kept copy)'),
    keep_document: z.boolean().default(false).describe('true once the import is accepted: the original is kept in the Document Center too'),
    patient: IdSchema.optional(),
  })
  .meta({ id: 'FhirConvertBody' });
export type FhirConvertBody = z.input<typeof FhirConvertBodySchema>;

export const FhirConvertResultSchema = z
  .object({
    bundle: z.looseObject({ resourceType: z.literal('Bundle') }).describe('a FHIR R4 Bundle: send it to POST /api/v1/fhir/import/ for the preview, then the accept'),
    title: z.string().describe('the document’s title (or its file name)'),
    unconverted_sections: z.array(z.string()).describe('titles of the sections with entries the converter does not read (they stay in the original document)'),
    kept_documents: z.array(DocumentSchema).describe('with keep_document: what was kept in the Document Center, the original first, then its readable copy (a PDF of its sections’ text); else empty'),
  })
  .meta({ id: 'FhirConvertResult' });
export type FhirConvertResult = z.infer<typeof FhirConvertResultSchema>;

/**
 * An Apple Health export (issue 28 §4): POST /api/v1/fhir/apple-health/ uploads `export.zip`, read
 * in the background (follow it with GET …/{id}/). Once ready, its clinical records go through the
 * FHIR import's preview (GET …/{id}/clinical/ gives their Bundle), and its measurements are added
 * as biometrics by POST …/{id}/measurements/.
 */
export const AppleHealthQuerySchema = z.object({
  patient: IdParamSchema.optional(),
  thin: z.enum(['day', 'none']).default('day').describe('day (the default): the latest reading of each measurement on each day; none: every reading'),
  time_zone: timeZoneSchema.optional().describe('the IANA time zone the days are counted in, when the patient’s account has none (else UTC)'),
});
export type AppleHealthQuery = z.output<typeof AppleHealthQuerySchema>;

/** The measurements an export's readings become (the biometrics category's). */
export const APPLE_HEALTH_MEASURES = CHOICE_LISTS.measure;
export const AppleHealthMeasureSchema = z.enum(APPLE_HEALTH_MEASURES);

const AppleHealthMeasureCountsSchema = z.object({
  read: z.number().int().describe('readings of this measurement in the export'),
  kept: z.number().int().describe('readings kept (after thinning): what the import adds'),
  refused: z.number().int().describe('readings left out: an unknown unit, a value that is not a number or out of range'),
  from: z.string().nullable().describe('the first day of the readings kept'),
  to: z.string().nullable().describe('the last day of the readings kept'),
});

export const AppleHealthImportSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(['reading', 'ready', 'importing', 'done', 'failed']).describe('reading: the zip is read (progress in bytes); ready: read, waiting for the choices; importing: the measurements are added (progress in readings); done; failed (error says why)'),
    file_name: z.string(),
    thin: z.enum(['day', 'none']),
    time_zone: z.string(),
    progress: z.object({ done: z.number(), total: z.number() }).describe('reading: uncompressed bytes; importing: measurements'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    counts: z
      .object({
        // One member per measurement, named (a record keyed by an enum serialises badly in fast-json-stringify).
        measures: z.object(Object.fromEntries(APPLE_HEALTH_MEASURES.map((m) => [m, AppleHealthMeasureCountsSchema])) as Record<(typeof APPLE_HEALTH_MEASURES)[number], typeof AppleHealthMeasureCountsSchema>),
        clinical: z.object({ read: z.number().int(), failed: z.number().int() }).describe('clinical records read (FHIR R4, or DSTU2 read as R4), and files that could not be'),
        problems: z.array(z.string()).describe('what went wrong with single files or readings, the first few of each kind (in English, for support)'),
      })
      .nullable()
      .describe('once read'),
    measurements: z
      .object({ imported: z.number().int(), duplicates: z.number().int(), skipped: z.number().int(), invalid: z.number().int(), measures: z.array(AppleHealthMeasureSchema) })
      .nullable()
      .describe('once the measurements are imported (or as far as they went, when it failed): how many were added, already there (imported before, or the same reading), skipped (a carer whose access does not reach biometrics), or broke the rules'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'AppleHealthImport' });
export type AppleHealthImport = z.infer<typeof AppleHealthImportSchema>;

export const AppleHealthMeasurementsBodySchema = z
  .object({ measures: z.array(AppleHealthMeasureSchema).min(1, 'validation:required').max(APPLE_HEALTH_MEASURES.length) })
  .meta({ id: 'AppleHealthMeasurementsBody' });
export type AppleHealthMeasurementsBody = z.input<typeof AppleHealthMeasurementsBodySchema>;

export const AppleHealthClinicalSchema = z
  .object({ bundle: z.looseObject({ resourceType: z.literal('Bundle') }).describe('the clinical records as a FHIR R4 collection Bundle: send it to POST /api/v1/fhir/import/ for the preview, then the accept') })
  .meta({ id: 'AppleHealthClinical' });
