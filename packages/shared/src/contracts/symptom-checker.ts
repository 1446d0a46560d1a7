import { z } from 'zod';
import { IdSchema } from './common';
import {
  ALL_ADVICE_KEYS,
  COMPLAINT_IDS,
  DURATIONS,
  FLAG_IDS,
  FLAG_LEVELS,
  MAX_AGE,
  MIN_AGE,
  SEVERITIES,
  SEXES,
  TRIAGE_LEVELS,
  complaintApplies,
  flagsFor,
} from '../symptom-checker';

/**
 * The symptom checker's API: the input of a check (only values from its lists: anything else is a
 * 400 naming the field), its result (also what an external checker must answer), and the list
 * of complaints with their red-flag questions in the reader's language.
 */

const choice = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

export const SymptomCheckInputSchema = z
  .object({
    age: z.number().int().min(MIN_AGE).max(MAX_AGE).describe('in whole years'),
    sex: choice(SEXES),
    complaint: choice(COMPLAINT_IDS),
    duration: choice(DURATIONS),
    severity: choice(SEVERITIES),
    red_flags: z.array(choice(FLAG_IDS)).max(FLAG_IDS.length).default([]).describe('the ids of the red-flag questions answered "yes" (the others count as "no")'),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (!complaintApplies(input.complaint, input)) ctx.addIssue({ code: 'custom', path: ['complaint'], message: 'validation:symptomComplaintNotForPerson' });
    else {
      const asked = new Set<string>(flagsFor(input.complaint, input));
      if (input.red_flags.some((id) => !asked.has(id))) ctx.addIssue({ code: 'custom', path: ['red_flags'], message: 'validation:symptomFlagNotAsked' });
    }
  })
  .meta({ id: 'SymptomCheckInput' });
export type SymptomCheckInput = z.infer<typeof SymptomCheckInputSchema>;

/** Saving a check to the record: the same input, and whose record (default: your own; `?patient=` also works). */
export const SaveSymptomCheckBodySchema = z
  .object({
    input: SymptomCheckInputSchema,
    patient: IdSchema.optional().describe('whose record (default: your own)'),
  })
  .strict();
export type SaveSymptomCheckBody = z.infer<typeof SaveSymptomCheckBodySchema>;

export const SymptomReasonSchema = z.object({
  kind: z.enum(['flag', 'rule', 'default']),
  id: z.string().max(100),
  text: z.string().max(500),
  source: z.object({ title: z.string().max(300), url: z.url() }).nullable(),
});
export type SymptomReason = z.infer<typeof SymptomReasonSchema>;

/** A check's result. An external checker answers this shape (checked before it is used). */
export const SymptomCheckResultSchema = z
  .object({
    checker: z.string().max(100).describe('which checker answered ("built-in", or the configured external one)'),
    level: z.enum(TRIAGE_LEVELS).describe('emergency: call the emergency number now; urgent: urgent care today; soon: see a doctor soon (telehealth); self-care: at home, with when to seek help'),
    reasons: z.array(SymptomReasonSchema).max(50).describe('why: the red flags answered yes, or the rules that escalated it, or the complaint’s default'),
    advice: z.array(z.enum(ALL_ADVICE_KEYS)).max(10).describe('what to do and when to seek help, as keys the app words'),
  })
  .meta({ id: 'SymptomCheckResult' });
export type SymptomCheckResult = z.infer<typeof SymptomCheckResultSchema>;

export const SymptomComplaintSchema = z.object({
  id: z.enum(COMPLAINT_IDS),
  name: z.string(),
  synonyms: z.array(z.string()),
  sexes: z.array(z.enum(SEXES)).nullable().describe('only for these (null: everyone)'),
  min_age: z.number().int().nullable(),
  max_age: z.number().int().nullable(),
  red_flags: z.array(
    z.object({
      id: z.enum(FLAG_IDS),
      question: z.string(),
      level: z.enum(FLAG_LEVELS),
      sexes: z.array(z.enum(SEXES)).nullable(),
      min_age: z.number().int().nullable(),
      max_age: z.number().int().nullable(),
    }),
  ),
});
export type SymptomComplaint = z.infer<typeof SymptomComplaintSchema>;

export const SymptomComplaintListSchema = z
  .object({
    checker: z.string(),
    complaints: z.array(SymptomComplaintSchema),
  })
  .meta({ id: 'SymptomComplaintList' });
export type SymptomComplaintList = z.infer<typeof SymptomComplaintListSchema>;

export const SavedSymptomCheckSchema = z.object({
  record_id: z.number().int(),
  record_type: z.literal('symptom'),
  patient: z.number().int(),
  result: SymptomCheckResultSchema,
});
export type SavedSymptomCheck = z.infer<typeof SavedSymptomCheckSchema>;
