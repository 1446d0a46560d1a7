import { z } from 'zod';

/** Django-REST-style error answers: a general error, or messages per field. */
export const DetailErrorSchema = z.object({ detail: z.string() }).meta({ id: 'DetailError' });
export type DetailError = z.infer<typeof DetailErrorSchema>;

export const FieldErrorsSchema = z.record(z.string(), z.array(z.string())).meta({ id: 'FieldErrors' });
export type FieldErrors = z.infer<typeof FieldErrorsSchema>;

export const ErrorAnswerSchema = z.union([DetailErrorSchema, FieldErrorsSchema]);

/** Primary colours are stored as #rrggbb. */
export const hexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'validation:colorInvalid' });
