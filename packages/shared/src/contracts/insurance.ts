import { z } from 'zod';
import { cleanText, isSingleLine } from '../validation';
import { IdParamSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

/**
 * Insurance cards (issue 13, item 5): the patient's cards — insurer, plan, member and group
 * numbers, the holder, validity — with photos of the front and back (JPEG, PNG or WebP, decided
 * by their bytes, at most 5 MB, image metadata removed).
 */

/** The largest card photo (bytes). */
export const INSURANCE_PHOTO_MAX_BYTES = 5 * 1024 * 1024;
export const INSURANCE_TEXT_MAX = 120;
export const INSURANCE_NUMBER_MAX = 64;
export const INSURANCE_NOTES_MAX = 2000;

export const HOLDER_RELATIONSHIPS = ['self', 'spouse', 'parent', 'other'] as const;
export const InsuranceSideSchema = z.enum(['front', 'back']);
export type InsuranceSide = z.infer<typeof InsuranceSideSchema>;

const line = (max: number) =>
  z
    .string()
    .transform(cleanText)
    .pipe(z.string().max(max, { message: 'validation:tooLong' }).refine(isSingleLine, { message: 'validation:textControlCharacters' }));
const requiredLine = (max: number) =>
  z
    .string({ message: 'validation:required' })
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1, { message: 'validation:required' })
        .max(max, { message: 'validation:tooLong' })
        .refine(isSingleLine, { message: 'validation:textControlCharacters' }),
    );
/** An optional line: empty means none. */
const optionalLine = (max: number) =>
  line(max)
    .transform((v) => v || null)
    .nullable()
    .optional();

const isRealDate = (value: string) => {
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
};
const dateSchema = z
  .string()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, { message: 'validation:dateFormat' })
  .refine(isRealDate, { message: 'validation:dateFormat' })
  .describe('YYYY-MM-DD');

const cardFields = {
  insurer: requiredLine(INSURANCE_TEXT_MAX),
  plan: optionalLine(INSURANCE_TEXT_MAX),
  member_number: requiredLine(INSURANCE_NUMBER_MAX),
  group_number: optionalLine(INSURANCE_NUMBER_MAX),
  holder_name: optionalLine(INSURANCE_TEXT_MAX),
  holder_relationship: z.enum(HOLDER_RELATIONSHIPS, { message: 'validation:invalid' }).optional(),
  valid_from: dateSchema.nullable().optional(),
  valid_to: dateSchema.nullable().optional(),
  notes: z
    .string()
    .transform(cleanText)
    .pipe(z.string().max(INSURANCE_NOTES_MAX, { message: 'validation:tooLong' }))
    .transform((v) => v || null)
    .nullable()
    .optional(),
};

const periodInOrder = (card: { valid_from?: string | null | undefined; valid_to?: string | null | undefined }) => !card.valid_from || !card.valid_to || card.valid_to >= card.valid_from;
const periodIssue = { message: 'validation:periodOrder', path: ['valid_to'] };

/** POST /api/v1/insurance/ */
export const CreateInsuranceCardBodySchema = z.object(cardFields).strict().refine(periodInOrder, periodIssue);
export type CreateInsuranceCardBody = z.input<typeof CreateInsuranceCardBodySchema>;

/** A card's fields that a client cannot set (the photos have their own routes): sent back, ignored. */
const CARD_READ_ONLY = ['id', 'front', 'back', 'created_at', 'updated_at'] as const;

/** PATCH /api/v1/insurance/{id}/: only the fields given change (the dates are checked against the stored ones too). */
export const UpdateInsuranceCardBodySchema = writableBody(
  z.object({ ...cardFields, insurer: cardFields.insurer.optional(), member_number: cardFields.member_number.optional() }).strict(),
  CARD_READ_ONLY,
).refine(periodInOrder, periodIssue);
export type UpdateInsuranceCardBody = z.input<typeof UpdateInsuranceCardBodySchema>;

const PhotoSchema = z
  .object({ content_type: z.string(), url: z.string().describe('GET with your Authorization header') })
  .nullable()
  .meta({ id: 'InsuranceCardPhoto' });

export const InsuranceCardSchema = z
  .object({
    id: z.number().int(),
    insurer: z.string(),
    plan: z.string().nullable(),
    member_number: z.string(),
    group_number: z.string().nullable(),
    holder_name: z.string().nullable(),
    holder_relationship: z.enum(HOLDER_RELATIONSHIPS),
    valid_from: z.string().nullable(),
    valid_to: z.string().nullable(),
    notes: z.string().nullable(),
    front: PhotoSchema,
    back: PhotoSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'InsuranceCard' });
export type InsuranceCard = z.infer<typeof InsuranceCardSchema>;
export const INSURANCE_CARD_READ_ONLY = readOnlyFields(InsuranceCardSchema, CARD_READ_ONLY);
export const InsuranceCardListSchema = z.array(InsuranceCardSchema);

export const InsuranceCardParamsSchema = z.object({ id: IdParamSchema });
export const InsurancePhotoParamsSchema = z.object({ id: IdParamSchema, side: InsuranceSideSchema });
export const InsurancePatientQuerySchema = z.object({ patient: IdParamSchema.optional().describe('whose cards (default: your own)') });
