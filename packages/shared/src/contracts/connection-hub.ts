import { z } from 'zod';
import { isCategoryKey } from '../records/categories';
import { isValidEmail } from '../validation';
import { IdParamSchema, IdSchema } from './common';

/**
 * The connection hub (issue 13, item 3): one person's accounts in two organisations, linked by
 * signing in to the other account (its password and second factor). Linked accounts switch
 * without the password (a single-use token of 60 seconds) and copy chosen records between
 * their own records through the FHIR export and import. Each account's data stays in its
 * organisation.
 */

/** The other account of a link, as its holder sees it from this one. */
export const LinkedAccountSchema = z
  .object({
    id: z.number().int().describe('the link'),
    organization: z.object({
      client_id: z.string().describe('the organisation’s client id (its address: /{client_id}/)'),
      name: z.string().describe('its display name'),
      logo: z.string().nullable().describe('its logo’s address'),
    }),
    name: z.string().describe('the other account’s name'),
    email: z.string(),
    linked_at: z.string(),
  })
  .meta({ id: 'LinkedAccount' });
export type LinkedAccount = z.infer<typeof LinkedAccountSchema>;
export const LinkedAccountListSchema = z.array(LinkedAccountSchema);

/** The form of "Link an account" (also the web form's schema; messages are validation keys). */
export const LinkAccountFormSchema = z.object({
  client_id: z
    .string()
    .trim()
    .min(1, { message: 'validation:linkOrganizationRequired' })
    .max(100)
    .regex(/^[A-Za-z0-9._-]+$/, { message: 'validation:linkOrganizationInvalid' }),
  email: z
    .string()
    .trim()
    .min(1, { message: 'validation:emailRequired', abort: true })
    .max(254)
    .refine(isValidEmail, { message: 'validation:emailInvalid' }),
  password: z.string().min(1, { message: 'validation:passwordRequired' }).max(256),
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, { message: 'validation:codeInvalid' })
    .optional(),
});
export type LinkAccountForm = z.input<typeof LinkAccountFormSchema>;
/** POST /api/v1/connection-hub/links/ */
export const CreateLinkBodySchema = LinkAccountFormSchema;
export type CreateLinkBody = z.output<typeof CreateLinkBodySchema>;

export const LinkParamsSchema = z.object({ id: IdParamSchema });

/** POST /api/v1/connection-hub/links/{id}/switch/ */
export const SwitchTokenSchema = z
  .object({
    token: z.string().describe('single use, for POST /api/v1/auth/linked/ within expires_in seconds'),
    client_id: z.string().describe('the other account’s organisation: the web app continues at /{client_id}/'),
    expires_in: z.number().int(),
  })
  .meta({ id: 'SwitchToken' });
export type SwitchToken = z.infer<typeof SwitchTokenSchema>;

/** POST /api/v1/auth/linked/ */
export const LinkedSignInBodySchema = z.object({ token: z.string().min(1).max(200) });
export type LinkedSignInBody = z.infer<typeof LinkedSignInBodySchema>;

export const COPY_DIRECTIONS = ['from-here', 'to-here'] as const;
export type CopyDirection = (typeof COPY_DIRECTIONS)[number];

/** POST /api/v1/connection-hub/links/{id}/copy/: some categories, or some records (of the account copied from). */
export const CopyRecordsBodySchema = z
  .object({
    categories: z
      .array(z.string().refine(isCategoryKey, { message: 'validation:categoryUnknown' }))
      .max(50)
      .optional()
      .describe('record categories to copy (all of their non-private records)'),
    records: z.array(IdSchema).max(500).optional().describe('or: ids of records of the account copied from'),
    direction: z.enum(COPY_DIRECTIONS).default('from-here').describe('from-here: from this account to the linked one; to-here: the other way'),
  })
  .refine((b) => (b.categories?.length ?? 0) + (b.records?.length ?? 0) > 0, { message: 'validation:copyNothingChosen', path: ['categories'] });
export type CopyRecordsBody = z.input<typeof CopyRecordsBodySchema>;

export const CopyRecordsResultSchema = z
  .object({
    direction: z.enum(COPY_DIRECTIONS),
    copied: z.number().int().describe('records added to the account copied to'),
    duplicates: z.number().int().describe('already there (copied before, or the same values)'),
    skipped: z.number().int().describe('not copied: not valid there, or of a kind not carried'),
  })
  .meta({ id: 'CopyRecordsResult' });
export type CopyRecordsResult = z.infer<typeof CopyRecordsResultSchema>;
