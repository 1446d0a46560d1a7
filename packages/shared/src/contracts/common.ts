import { z } from 'zod';
import { CLIENT_ID_MAX_LENGTH, MAX_ID } from '../constants';
import { cleanText, hasLetter, isSingleLine, isValidEmail } from '../validation';

/** Django-REST-style error answers: a general error, or messages per field. */
export const DetailErrorSchema = z.object({ detail: z.string() }).meta({ id: 'DetailError' });
export type DetailError = z.infer<typeof DetailErrorSchema>;

export const FieldErrorsSchema = z.record(z.string(), z.array(z.string())).meta({ id: 'FieldErrors' });
export type FieldErrors = z.infer<typeof FieldErrorsSchema>;

export const ErrorAnswerSchema = z.union([DetailErrorSchema, FieldErrorsSchema]);

/** Primary colours are stored as #rrggbb. */
export const hexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'validation:colorInvalid' });

/**
 * A database id: a positive integer that fits PostgreSQL's `integer` (anything larger is refused
 * with a field error here, before it could reach a query).
 */
export const IdSchema = z.number().int().min(1).max(MAX_ID, { message: 'validation:idOutOfRange' });
/** An id in a path or query string: digits only, within the same range. */
export const IdParamSchema = z
  .string()
  .regex(/^[0-9]{1,10}$/, { message: 'validation:idInvalid' })
  .transform(Number)
  .pipe(IdSchema);

/**
 * An organisation as clients name it: its id (a number, or digits) or its client id
 * ("healthbook"). Answers the number or the lower-cased client id.
 */
export const OrgRefSchema = z.union([
  IdSchema,
  z
    .string()
    .trim()
    .min(1)
    .max(CLIENT_ID_MAX_LENGTH)
    .refine((v) => !/^[0-9]+$/.test(v) || Number(v) <= MAX_ID, { message: 'validation:idOutOfRange' })
    .transform((v) => (/^[0-9]+$/.test(v) ? Number(v) : v.toLowerCase())),
]);
export type OrgRef = z.output<typeof OrgRefSchema>;

/**
 * A person's name: one line, cleaned (NFC, no zero-width or surrounding space), at least one
 * letter: a name of only spaces, zero-width characters, digits or punctuation is refused.
 */
export const personNameSchema = (requiredKey: string, max = 100) =>
  z
    .string()
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1, { message: requiredKey, abort: true })
        .max(max)
        .refine(isSingleLine, { message: 'validation:textControlCharacters', abort: true })
        .refine(hasLetter, { message: 'validation:nameNeedsLetter' }),
    );

/** Optional one-line text (address, city, ...): cleaned; empty (after cleaning) means "clear it". */
export const optionalLineSchema = (max: number) =>
  z
    .string()
    .transform(cleanText)
    .pipe(z.string().max(max).refine(isSingleLine, { message: 'validation:textControlCharacters' }))
    .nullable()
    .optional();

/** An e-mail address typed in: required, at most 254 characters, valid, kept in lower case. */
export const EmailAddressSchema = z
  .string()
  .trim()
  .min(1, { message: 'validation:emailRequired', abort: true })
  .max(254)
  .refine(isValidEmail, { message: 'validation:emailInvalid' })
  .transform((v) => v.toLowerCase());

/** `?page=` and `?page_size=` of a paged list (1 on, and 1 to 100). */
export const PageParamSchema = z.string().regex(/^[0-9]{1,6}$/, { message: 'validation:pageInvalid' }).transform(Number).pipe(z.number().int().min(1, { message: 'validation:pageInvalid' }));
export const PageSizeParamSchema = z
  .string()
  .regex(/^[0-9]{1,4}$/, { message: 'validation:pageSizeInvalid' })
  .transform(Number)
  .pipe(z.number().int().min(1, { message: 'validation:pageSizeInvalid' }).max(100, { message: 'validation:pageSizeTooBig' }));
