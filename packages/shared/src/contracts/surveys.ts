import { z } from 'zod';
import { SURVEY_KEYS } from '../surveys';
import { IdParamSchema, IdSchema } from './common';
import { writableBody } from './round-trip';

/**
 * The surveys' API (/api/v1/surveys/): the list, one survey's questions, submitting answers
 * (the server scores them: a client's total is never trusted), and the history. Texts come in
 * the request's language. Acts on `patient` (default: your own record).
 */

const SurveyKeySchema = z.enum(SURVEY_KEYS, { message: 'validation:surveyUnknown' });

export const SurveyParamsSchema = z.object({ survey: SurveyKeySchema });
export const SurveyResponseParamsSchema = z.object({ id: IdParamSchema });
export const SurveyPatientQuerySchema = z.object({ patient: IdParamSchema.optional().describe('whose record (default: your own)') });
export const SurveyHistoryQuerySchema = z.object({
  patient: IdParamSchema.optional().describe('whose record (default: your own)'),
  survey: SurveyKeySchema.optional().describe('only this survey'),
});
export type SurveyHistoryQuery = z.output<typeof SurveyHistoryQuerySchema>;

export const SurveyOptionDtoSchema = z.object({ value: z.number().int(), label: z.string() });
export const SurveyBandDtoSchema = z.object({
  key: z.string(),
  min: z.number().int(),
  max: z.number().int(),
  level: z.number().int().min(0).max(4).describe('0 nothing of concern … 4 severe'),
  label: z.string(),
  meaning: z.string(),
});
export type SurveyBandDto = z.infer<typeof SurveyBandDtoSchema>;

const SurveyCommonFields = {
  key: SurveyKeySchema,
  route: z.string().describe('its page: mental-health-survey/<route>, and health-action/result?action=<route>'),
  title: z.string(),
  summary: z.string(),
  max_score: z.number().int(),
  higher_is_better: z.boolean(),
};

/** GET /api/v1/surveys/{survey}/ */
export const SurveyDtoSchema = z
  .object({
    ...SurveyCommonFields,
    instructions: z.string(),
    items: z.array(
      z.object({
        id: z.string(),
        text: z.string(),
        options: z.array(SurveyOptionDtoSchema),
        optional: z.boolean(),
        scored: z.boolean(),
        safety: z.boolean().describe('any answer above 0 means crisis help is shown at once (PHQ-9 item 9)'),
      }),
    ),
    bands: z.array(SurveyBandDtoSchema),
    note: z.string().describe('what a result does not mean (a screening, not a diagnosis)'),
    attribution: z.string().nullable(),
  })
  .meta({ id: 'Survey' });
export type SurveyDto = z.infer<typeof SurveyDtoSchema>;

/** GET /api/v1/surveys/: every survey with the latest result of the patient. */
export const SurveySummarySchema = z
  .object({
    ...SurveyCommonFields,
    last: z.object({ id: z.number().int(), score: z.number().int(), band: SurveyBandDtoSchema, submitted_at: z.string() }).nullable(),
    count: z.number().int().describe('results kept'),
  })
  .meta({ id: 'SurveySummary' });
export const SurveyListSchema = z.array(SurveySummarySchema);
export type SurveySummary = z.infer<typeof SurveySummarySchema>;

/** POST /api/v1/surveys/{survey}/responses/ */
export const SurveySubmitBodySchema = z
  .object({
    attempt_id: z.uuid({ message: 'validation:surveyAttemptInvalid' }).describe('made by the client once per attempt: a second submission of one attempt is refused'),
    answers: z
      .record(z.string().max(40), z.number().int({ message: 'validation:surveyAnswerInvalid' }))
      .refine((a) => Object.keys(a).length <= 40, { message: 'validation:surveyAnswersTooMany' })
      .describe('item id → the value of the answer chosen'),
    patient: IdSchema.optional(),
  })
  .meta({ id: 'SurveySubmitBody' });
export type SurveySubmitBody = z.input<typeof SurveySubmitBodySchema>;

/** A kept result: the score and band the server computed, with every answer as it was asked. */
export const SurveyResultSchema = z
  .object({
    id: z.number().int(),
    survey: SurveyKeySchema,
    route: z.string(),
    title: z.string(),
    score: z.number().int(),
    max_score: z.number().int(),
    higher_is_better: z.boolean(),
    band: SurveyBandDtoSchema,
    safety: z.boolean().describe('crisis help must be shown first (PHQ-9 item 9 answered above 0)'),
    next: SurveyKeySchema.nullable().describe('the survey that follows at once (PHQ-2 positive: phq-9)'),
    note: z.string(),
    attribution: z.string().nullable(),
    answers: z.array(z.object({ item: z.string(), text: z.string(), value: z.number().int().nullable(), label: z.string().nullable() })),
    submitted_at: z.string(),
    submitted_by: z.string().describe('who answered: the patient, or someone acting for them'),
  })
  .meta({ id: 'SurveyResult' });
export type SurveyResult = z.infer<typeof SurveyResultSchema>;

export const SurveyHistorySchema = z.array(SurveyResultSchema);

const LocalizedSchema = z.object({ en: z.string().min(1).max(2000), el: z.string().min(1).max(2000) });
const SurveyOptionSchema = z.object({ value: z.number().int().min(0).max(10), label: LocalizedSchema });

/**
 * An organisation's own survey (general, profile-questionnaire), as stored: the shape of the
 * shared SurveyDefinition, with bands that must cover every score (checked by surveyProblems).
 */
export const SurveyDefinitionSchema = z
  .object({
    key: z.enum(['general', 'profile-questionnaire']),
    title: LocalizedSchema,
    summary: LocalizedSchema,
    instructions: LocalizedSchema,
    scale: z.array(SurveyOptionSchema).min(2).max(11),
    items: z
      .array(
        z.object({
          id: z.string().regex(/^[a-z0-9-]{1,40}$/),
          text: LocalizedSchema,
          options: z.array(SurveyOptionSchema).min(2).max(11).optional(),
          scored: z.boolean().optional(),
          optional: z.boolean().optional(),
          reverse: z.boolean().optional(),
          safety: z.boolean().optional(),
        }),
      )
      .min(1)
      .max(40),
    bands: z
      .array(
        z.object({
          key: z.string().regex(/^[a-z0-9-]{1,40}$/),
          min: z.number().int().min(0),
          max: z.number().int().min(0),
          level: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
          label: LocalizedSchema,
          meaning: LocalizedSchema,
        }),
      )
      .min(1)
      .max(10),
    multiplier: z.number().int().min(1).max(10).optional(),
    higherIsBetter: z.boolean().optional(),
    note: LocalizedSchema,
    attribution: LocalizedSchema.optional(),
  })
  .meta({ id: 'SurveyDefinition' });
export type OrganizationSurveyDefinition = z.infer<typeof SurveyDefinitionSchema>;
/** PUT …/surveys/{survey}/: the definition as GET answers it (every field of it is the organisation's to set: none is read-only). */
export const SurveyDefinitionBodySchema = writableBody(z.object(SurveyDefinitionSchema.shape), []);

/** PUT/GET /api/v1/organizations/{id}/surveys/{survey}/ (administrators): the organisation's own set. */
export const OrganizationSurveyParamsSchema = z.object({
  id: IdParamSchema,
  survey: z.enum(['general', 'profile-questionnaire'], { message: 'validation:surveyUnknown' }),
});
