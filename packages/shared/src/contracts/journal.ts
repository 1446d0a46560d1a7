import { z } from 'zod';
import { calendarDaySchema } from './calendar';
import { IdParamSchema, PageParamSchema, PageSizeParamSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';
import { JOURNAL_LIMITS } from '../journal';

/**
 * The journal's API (/api/v1/journal/): dated entries with a title, text, a mood (1-5) and
 * tags. Private by default: a private entry is its owner's alone; an entry shared with the care
 * network is seen by those the patient let in. Acts on `patient` (default: your own record).
 */

const pageParam = PageParamSchema;
const pageSizeParam = PageSizeParamSchema;

export const JournalPatientQuerySchema = z.object({ patient: IdParamSchema.optional().describe('whose journal (default: your own)') });

export const JournalListQuerySchema = z.object({
  patient: IdParamSchema.optional().describe('whose journal (default: your own)'),
  page: pageParam.optional(),
  page_size: pageSizeParam.optional(),
  search: z.string().max(200).optional().describe('words in the title, text or tags'),
  tag: z.string().max(JOURNAL_LIMITS.tagLength).optional().describe('only entries with this tag'),
  date_from: calendarDaySchema.optional(),
  date_to: calendarDaySchema.optional(),
});
export type JournalListQuery = z.output<typeof JournalListQuerySchema>;

export const JournalMoodsQuerySchema = z.object({
  patient: IdParamSchema.optional().describe('whose journal (default: your own)'),
  date_from: calendarDaySchema.optional(),
  date_to: calendarDaySchema.optional(),
});
export type JournalMoodsQuery = z.output<typeof JournalMoodsQuerySchema>;

export const JournalEntryParamsSchema = z.object({ id: IdParamSchema });

const tagSchema = z
  .string()
  .trim()
  .min(1, { message: 'validation:journalTagEmpty' })
  .max(JOURNAL_LIMITS.tagLength, { message: 'validation:journalTagTooLong' });

const bodyFields = {
  entry_date: calendarDaySchema.describe('the day the entry is about (not in the future, not before the birth date)'),
  title: z
    .string({ message: 'validation:journalTitleRequired' })
    .trim()
    .min(1, { message: 'validation:journalTitleRequired' })
    .max(JOURNAL_LIMITS.title, { message: 'validation:journalTitleTooLong' }),
  text: z.string().max(JOURNAL_LIMITS.text, { message: 'validation:journalTextTooLong' }),
  mood: z
    .number({ message: 'validation:journalMoodInvalid' })
    .int({ message: 'validation:journalMoodInvalid' })
    .min(1, { message: 'validation:journalMoodInvalid' })
    .max(5, { message: 'validation:journalMoodInvalid' })
    .nullable()
    .describe('1 (very low) … 5 (very good); null: not said'),
  tags: z.array(tagSchema).max(JOURNAL_LIMITS.tags, { message: 'validation:journalTooManyTags' }),
  private: z.boolean().describe('true (the default): the owner alone sees it; false: the care network too'),
};

/** What an entry's answer holds that a client cannot set: sent back, ignored. */
const ENTRY_READ_ONLY = ['id', 'patient', 'created_at', 'updated_at'] as const;

/** POST and PUT: every field (text, mood, tags and private have defaults). */
export const JournalEntryBodySchema = writableBody(
  z
    .object({
      entry_date: bodyFields.entry_date,
      title: bodyFields.title,
      text: bodyFields.text.default(''),
      mood: bodyFields.mood.default(null),
      tags: bodyFields.tags.default([]),
      private: bodyFields.private.default(true),
    })
    .meta({ id: 'JournalEntryBody' }),
  ENTRY_READ_ONLY,
);
export type JournalEntryBody = z.input<typeof JournalEntryBodySchema>;
export type JournalEntryInput = z.output<typeof JournalEntryBodySchema>;

/** PATCH: some fields. */
export const JournalEntryPatchSchema = writableBody(z.object(bodyFields).partial().meta({ id: 'JournalEntryPatch' }), ENTRY_READ_ONLY);
export type JournalEntryPatch = z.output<typeof JournalEntryPatchSchema>;

export const JournalEntrySchema = z
  .object({
    id: z.number().int(),
    patient: z.number().int(),
    entry_date: z.string(),
    title: z.string(),
    text: z.string(),
    mood: z.number().int().nullable(),
    tags: z.array(z.string()),
    private: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'JournalEntry' });
export type JournalEntry = z.infer<typeof JournalEntrySchema>;
export const JOURNAL_ENTRY_READ_ONLY = readOnlyFields(JournalEntrySchema, ENTRY_READ_ONLY);

export const JournalPageSchema = z
  .object({ count: z.number().int(), page: z.number().int(), page_size: z.number().int(), results: z.array(JournalEntrySchema) })
  .meta({ id: 'JournalPage' });
export type JournalPage = z.infer<typeof JournalPageSchema>;

export const JournalMoodsSchema = z
  .array(z.object({ id: z.number().int(), date: z.string(), mood: z.number().int() }))
  .meta({ id: 'JournalMoods' });
export type JournalMoods = z.infer<typeof JournalMoodsSchema>;
