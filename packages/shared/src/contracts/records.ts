import { z } from 'zod';
import { CHOICE_LISTS } from '../records/choices';
import type { CategoryDefinition, RecordField } from '../records/fields';
import { DATE_PARTS } from '../records/medical-date';
import { IdParamSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

/**
 * The health-record API (the spec's generic resource client), derived from the category
 * declarations in records/categories.ts: one request and one answer schema per category, so
 * that every category's routes, OpenAPI document and serialisation follow its declaration.
 * The rules themselves (ranges, dates, rules across fields) are records/rules.ts, which the
 * service applies; these schemas check the JSON types.
 */

const isoDate = z.string().describe('YYYY-MM-DD');
const loose = {
  text: z.string(),
  number: z.union([z.number(), z.string()]).describe('a number (a decimal in a string is accepted)'),
  boolean: z.union([z.boolean(), z.enum(['true', 'false'])]),
};

/** One field in a request (every field optional: PATCH sends some, POST and PUT may omit the ones that are not required). */
function requestFields(field: RecordField): Record<string, z.ZodType> {
  switch (field.kind) {
    case 'text':
      return { [field.name]: loose.text.nullable().optional().describe(`at most ${field.max} characters`) };
    case 'number':
      return { [field.name]: loose.number.nullable().optional().describe(`${field.integer ? 'an integer' : 'a number'} from ${field.min} to ${field.max}`) };
    case 'measurement':
      return { [field.name]: loose.number.nullable().optional().describe('in the stored unit of the measure (kg, m, mmHg, bpm, mmol/L, °C, %)') };
    case 'boolean':
      return { [field.name]: loose.boolean.nullable().optional() };
    case 'choice':
      return { [field.name]: z.string().nullable().optional().describe(`one of: ${CHOICE_LISTS[field.list].join(', ')}`) };
    case 'country':
      return { [field.name]: z.string().nullable().optional().describe('ISO 3166-1 alpha-2 code') };
    case 'date':
      return { [field.name]: isoDate.nullable().optional() };
    case 'medicalDate':
      return {
        [field.name]: isoDate.nullable().optional().describe('a month is kept as its first day, a year as its 1 January; the precision says which'),
        [`${field.name}_part`]: z.enum(DATE_PARTS).nullable().optional().describe('how much of the date is known; "past": no date, only that it was in the past'),
      };
  }
}

/** One field in an answer. */
function answerFields(field: RecordField): Record<string, z.ZodType> {
  switch (field.kind) {
    case 'number':
    case 'measurement':
      return { [field.name]: z.number().nullable() };
    case 'boolean':
      return { [field.name]: z.boolean() };
    case 'medicalDate':
      return { [field.name]: z.string().nullable(), [`${field.name}_part`]: z.enum(DATE_PARTS).nullable() };
    default:
      return { [field.name]: z.string().nullable() };
  }
}

export const AttachmentSchema = z
  .object({
    id: z.number().int(),
    file_name: z.string(),
    content_type: z.string(),
    size: z.number().int(),
    url: z.string().describe('download address (needs the same rights as reading the record)'),
    created_at: z.string(),
  })
  .meta({ id: 'Attachment' });
export type Attachment = z.infer<typeof AttachmentSchema>;

/** Where a record came from when a connected source brought it (issue 28): read-only to the patient but for its note and the private mark. */
export const RecordProvenanceSchema = z
  .object({
    source_id: z.number().int().nullable().describe('the organisation’s source (null once the organisation removed it)'),
    source_name: z.string().nullable(),
    resource: z.string().describe('the FHIR resource it was made from, `Type/id` at the source'),
    version: z.string().nullable().describe('the resource’s version (meta.versionId) last read'),
    fetched_at: z.string().nullable(),
    deleted_at: z.string().nullable().describe('when the source was seen no longer to have it (the record stays)'),
  })
  .meta({ id: 'RecordProvenance' });
export type RecordProvenance = z.infer<typeof RecordProvenanceSchema>;

const commonAnswer = {
  id: z.number().int(),
  record_type: z.string().describe("the category: condition, allergy, … (allergies and social history have a field named category of their own)"),
  patient: z.number().int().describe('the patient_id the record belongs to'),
  private: z.boolean().describe('"for my eyes only": shown to its owner only'),
  attachments: z.array(AttachmentSchema),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  provenance: RecordProvenanceSchema.nullable().describe('null for a record typed in or imported from a file'),
};

/** What a record's answer holds that a client cannot set (allergies add allergy_id): sent back, ignored. */
export const RECORD_READ_ONLY = readOnlyFields(z.object(commonAnswer), ['id', 'record_type', 'patient', 'attachments', 'version', 'created_at', 'updated_at', 'provenance']);
const readOnlyOf = (category: CategoryDefinition): readonly string[] => (category.key === 'allergy' ? [...RECORD_READ_ONLY, 'allergy_id'] : RECORD_READ_ONLY);

const requestSchemas = new Map<string, z.ZodType>();
const answerSchemas = new Map<string, z.ZodType>();

/** The request body of a category (POST, PUT, PATCH). */
export function recordBodySchema(category: CategoryDefinition): z.ZodType {
  let schema = requestSchemas.get(category.key);
  if (!schema) {
    schema = writableBody(
      z.looseObject({ ...Object.assign({}, ...category.fields.map(requestFields)), private: loose.boolean.nullable().optional() }).meta({ id: `${category.key}_write` }),
      readOnlyOf(category),
    );
    requestSchemas.set(category.key, schema);
  }
  return schema;
}

/**
 * Some of a category's fields as a request body, each field as in the category's own body (the
 * limits are its declaration's, which checkRecord applies): a form that writes part of a record,
 * such as a provider's visit note. Other fields are dropped.
 */
export function recordFieldsBodySchema(category: CategoryDefinition, names: readonly string[]) {
  const fields = names.map((name) => {
    const field = category.fields.find((f) => f.name === name);
    if (!field) throw new Error(`the category ${category.key} has no field ${name}`);
    return field;
  });
  return z.object(Object.assign({}, ...fields.map(requestFields)) as Record<string, z.ZodType>);
}

/** A record of a category as the API answers it (allergies also carry `allergy_id`, the spec's name of their id). */
export function recordAnswerSchema(category: CategoryDefinition): z.ZodType {
  let schema = answerSchemas.get(category.key);
  if (!schema) {
    schema = z
      .object({
        ...commonAnswer,
        ...(category.key === 'allergy' ? { allergy_id: z.number().int() } : {}),
        ...Object.assign({}, ...category.fields.map(answerFields)),
      })
      .meta({ id: category.key });
    answerSchemas.set(category.key, schema);
  }
  return schema;
}

/** A record as code handles it, whatever its category. */
export interface HealthRecord {
  id: number;
  record_type: string;
  patient: number;
  private: boolean;
  attachments: Attachment[];
  version: number;
  created_at: string;
  updated_at: string;
  provenance: RecordProvenance | null;
  allergy_id?: number;
  [field: string]: unknown;
}

/** GET /api/v1/hr/{category}/ */
export const RecordListQuerySchema = z.object({
  patient: IdParamSchema.optional().describe('whose record (default: your own)'),
  page: z.string().regex(/^[0-9]{1,6}$/, { message: 'validation:pageInvalid' }).transform(Number).pipe(z.number().int().min(1, { message: 'validation:pageInvalid' })).optional(),
  page_size: z
    .string()
    .regex(/^[0-9]{1,4}$/, { message: 'validation:pageSizeInvalid' })
    .transform(Number)
    .pipe(z.number().int().min(1, { message: 'validation:pageSizeInvalid' }).max(100, { message: 'validation:pageSizeTooBig' }))
    .optional(),
  ordering: z.string().max(60).optional().describe('a field name, "-" first for descending'),
  search: z.string().max(200).optional(),
  date_from: isoDate.regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: 'validation:dateFormat' }).optional(),
  date_to: isoDate.regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: 'validation:dateFormat' }).optional(),
});
export type RecordListQuery = z.output<typeof RecordListQuerySchema>;

export const PatientQuerySchema = z.object({ patient: IdParamSchema.optional().describe('whose record (default: your own)') });

export const recordPageSchema = (category: CategoryDefinition) =>
  z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(recordAnswerSchema(category)),
  });
export interface RecordPage {
  count: number;
  next: string | null;
  previous: string | null;
  results: HealthRecord[];
}

export const RecordIdParamsSchema = z.object({ id: IdParamSchema });

/** OPTIONS /api/v1/hr/{category}/: Django REST's metadata, labels in the reader's language. */
export const FieldMetadataSchema = z.object({
  type: z.enum(['string', 'integer', 'decimal', 'boolean', 'choice', 'date', 'field']),
  required: z.boolean(),
  read_only: z.boolean(),
  label: z.string(),
  help_text: z.string().optional(),
  max_length: z.number().int().optional(),
  min_value: z.number().optional(),
  max_value: z.number().optional(),
  choices: z.array(z.object({ value: z.string(), display_name: z.string() })).optional(),
});
export type FieldMetadata = z.infer<typeof FieldMetadataSchema>;
export const RecordOptionsSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    renders: z.array(z.string()),
    parses: z.array(z.string()),
    actions: z.object({ POST: z.record(z.string(), FieldMetadataSchema) }),
  })
  .meta({ id: 'RecordOptions' });
export type RecordOptions = z.infer<typeof RecordOptionsSchema>;

/** GET /api/v1/hr/summary/ */
export const RecordSummarySchema = z
  .object({
    patient: z.number().int(),
    total: z.number().int(),
    categories: z.array(
      z.object({
        category: z.string(),
        name: z.string(),
        count: z.number().int(),
        latest_date: z.string().nullable().describe('the latest date among its records (their own dates)'),
        latest_date_part: z.enum(DATE_PARTS).nullable().describe('how precisely that date is known'),
        last_updated: z.string().nullable(),
      }),
    ),
    recent: z.array(
      z.object({ id: z.number().int(), category: z.string(), title: z.string(), date: z.string().nullable(), date_part: z.enum(DATE_PARTS).nullable(), updated_at: z.string(), private: z.boolean() }),
    ),
  })
  .meta({ id: 'RecordSummary' });
export type RecordSummary = z.infer<typeof RecordSummarySchema>;

/** GET /api/v1/hr/{category}/{id}/history/ */
export const RecordVersionSchema = z.object({
  version: z.number().int(),
  action: z.enum(['create', 'update']),
  changed_at: z.string(),
  changed_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  changes: z.array(z.object({ field: z.string(), label: z.string(), from: z.unknown(), to: z.unknown() })),
});
export const RecordHistorySchema = z.array(RecordVersionSchema).meta({ id: 'RecordHistory' });
export type RecordVersion = z.infer<typeof RecordVersionSchema>;

/** POST /api/v1/hr/{id}/attachment/ (multipart; these are its text fields). */
export const AttachmentParamsSchema = z.object({ id: IdParamSchema });
export const AttachmentIdParamsSchema = z.object({ id: IdParamSchema });

/** GET /api/v1/patients/{id} */
export const PatientSchema = z
  .object({
    patient_id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    dob: z.string().nullable(),
    gender: z.string().nullable(),
    is_self: z.boolean().describe('the patient is the signed-in user'),
    access: z.enum(['owner', 'full', 'read-only']).describe('what the signed-in user may do with this record'),
    categories: z.array(z.string()).nullable().describe('the record categories the signed-in user may see; null: all of them'),
    relation: z.enum(['self', 'care-network', 'dependant']).describe('why the record is open to the signed-in user: their own, a care-network grant, a family member they manage'),
    has_account: z.boolean().describe('the patient has an account of their own (a dependant may not)'),
  })
  .meta({ id: 'Patient' });
export type Patient = z.infer<typeof PatientSchema>;
export const PatientListSchema = z.array(PatientSchema);
