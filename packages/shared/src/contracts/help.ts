import { z } from 'zod';
import { HELP_CONTACT_CATEGORIES, HELP_MESSAGE_MAX, HELP_SEARCH_MAX, HELP_SLUG_MAX, HELP_SLUG_PATTERN, HELP_SUBJECT_MAX } from '../help';
import { cleanText, isSingleLine } from '../validation';
import { IdParamSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

export * from '../help';

/**
 * The help area (feature `help`): the organisation's articles in the request's language,
 * searchable; a message to the organisation's support address. The assistant (feature
 * `assistant`): the best-matching articles and product pages for a question.
 */

/** One article in a list: its first paragraph as the summary. */
export const HelpArticleSummarySchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    summary: z.string(),
    tags: z.array(z.string()),
    /** Written by the organisation (false: one of the articles every organisation has). */
    own: z.boolean(),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'HelpArticleSummary' });
export type HelpArticleSummary = z.infer<typeof HelpArticleSummarySchema>;

export const HelpArticleSchema = HelpArticleSummarySchema.extend({
  /** Plain text; paragraphs are separated by a blank line, lines starting with "- " are list items. */
  body: z.string(),
  /** The catalogue feature the article is about (its page is linked while the feature is active). */
  feature: z.string().nullable(),
  /** That feature's page under /{clientId}/, when it is active for the reader's organisation. */
  feature_route: z.string().nullable(),
  feature_name: z.string().nullable(),
}).meta({ id: 'HelpArticle' });
export type HelpArticle = z.infer<typeof HelpArticleSchema>;

export const HelpArticleListSchema = z
  .object({
    /** The search as understood (trimmed), or null for the whole list. */
    search: z.string().nullable(),
    results: z.array(HelpArticleSummarySchema),
  })
  .meta({ id: 'HelpArticleList' });
export type HelpArticleList = z.infer<typeof HelpArticleListSchema>;

export const ListHelpArticlesQuerySchema = z.object({
  search: z.string().max(HELP_SEARCH_MAX, { message: 'validation:helpSearchTooLong' }).optional(),
});

export const HelpArticleParamsSchema = z.object({
  slug: z.string().max(HELP_SLUG_MAX).regex(HELP_SLUG_PATTERN, { message: 'validation:helpSlugInvalid' }),
});

const messageText = (requiredKey: string, max: number, tooLongKey: string, singleLine: boolean) =>
  z
    .string({ message: requiredKey })
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1, { message: requiredKey, abort: true })
        .max(max, { message: tooLongKey, abort: true })
        .refine((v) => !singleLine || isSingleLine(v), { message: 'validation:textControlCharacters' }),
    );

/** POST /api/v1/help/contact/: a message to the organisation's support address. */
export const HelpContactBodySchema = z
  .object({
    subject: messageText('validation:helpSubjectRequired', HELP_SUBJECT_MAX, 'validation:helpSubjectTooLong', true),
    message: messageText('validation:helpMessageRequired', HELP_MESSAGE_MAX, 'validation:helpMessageTooLong', false),
    category: z.enum(HELP_CONTACT_CATEGORIES, { message: 'validation:helpCategoryInvalid' }).optional(),
  })
  .strict()
  .meta({ id: 'HelpContactBody' });
export type HelpContactBody = z.input<typeof HelpContactBodySchema>;

export const HelpContactSentSchema = z
  .object({
    detail: z.string(),
    /** Where the message went (the organisation's support address). */
    sent_to: z.string(),
  })
  .meta({ id: 'HelpContactSent' });
export type HelpContactSent = z.infer<typeof HelpContactSentSchema>;

export const AssistantQuerySchema = z.object({
  q: z
    .string({ message: 'validation:assistantQuestionRequired' })
    .trim()
    .min(1, { message: 'validation:assistantQuestionRequired' })
    .max(HELP_SEARCH_MAX, { message: 'validation:helpSearchTooLong' }),
});

/** A product page of the organisation (an active feature of the catalogue). */
export const AssistantPageSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string(),
  /** The page under /{clientId}/. */
  route: z.string(),
});
export type AssistantPage = z.infer<typeof AssistantPageSchema>;

export const AssistantAnswerSchema = z
  .object({
    query: z.string(),
    /** False when neither an article nor a page matched: offer the contact form (and the live chat). */
    matched: z.boolean(),
    articles: z.array(HelpArticleSummarySchema),
    pages: z.array(AssistantPageSchema),
  })
  .meta({ id: 'AssistantAnswer' });
export type AssistantAnswer = z.infer<typeof AssistantAnswerSchema>;

// ---- Administrators: the organisation's own articles (/api/v1/organizations/{id}/help/articles/) ----

export const HELP_TITLE_MAX = 200;
export const HELP_BODY_MAX = 20000;
export const HELP_TAGS_MAX = 30;

/** An article as its editors see it: both languages, whether it is the organisation's own, whether it replaces (or hides) a default one. */
export const AdminHelpArticleSchema = z
  .object({
    slug: z.string(),
    position: z.number().int(),
    hidden: z.boolean().describe('a default article the organisation hides from its members'),
    feature: z.string().nullable(),
    tags: z.array(z.string()),
    title_en: z.string(),
    title_el: z.string(),
    body_en: z.string(),
    body_el: z.string(),
    own: z.boolean().describe("the organisation's own version (false: every organisation's default, unchanged)"),
    has_default: z.boolean().describe('every organisation has an article with this slug (removing the own version brings it back)'),
    updated_at: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'AdminHelpArticle' });
export type AdminHelpArticle = z.infer<typeof AdminHelpArticleSchema>;
export const AdminHelpArticleListSchema = z.array(AdminHelpArticleSchema);

export const OrganizationHelpArticleParamsSchema = z.object({
  id: IdParamSchema,
  slug: z.string().max(HELP_SLUG_MAX, { message: 'validation:helpSlugInvalid' }).regex(HELP_SLUG_PATTERN, { message: 'validation:helpSlugInvalid' }),
});
export const OrganizationIdOnlyParamsSchema = z.object({ id: IdParamSchema });

const articleText = (max: number) => z.string().transform(cleanText).pipe(z.string().max(max));
const ADMIN_HELP_READ_ONLY = readOnlyFields(AdminHelpArticleSchema, ['slug', 'own', 'has_default', 'updated_at']);

/**
 * PUT …/help/articles/{slug}/: the organisation's own version of the article (a new slug adds one).
 * Title and text are required in both languages unless `hidden` (a default article taken away).
 */
export const SaveHelpArticleBodySchema = writableBody(
  z
    .object({
      title_en: articleText(HELP_TITLE_MAX).optional(),
      title_el: articleText(HELP_TITLE_MAX).optional(),
      body_en: articleText(HELP_BODY_MAX).optional(),
      body_el: articleText(HELP_BODY_MAX).optional(),
      tags: z.array(z.string().trim().min(1).max(40)).max(HELP_TAGS_MAX).optional(),
      feature: z.string().max(60).nullable().optional(),
      position: z.number().int().min(0).max(10000).optional(),
      hidden: z.boolean().optional(),
    })
    .strict()
    .meta({ id: 'SaveHelpArticleBody' }),
  ADMIN_HELP_READ_ONLY,
).superRefine((value, ctx) => {
  if (value.hidden) return;
  for (const field of ['title_en', 'title_el', 'body_en', 'body_el'] as const) {
    if (!value[field]?.trim()) ctx.addIssue({ code: 'custom', path: [field], message: 'validation:required' });
  }
});
export type SaveHelpArticleBody = z.input<typeof SaveHelpArticleBodySchema>;
