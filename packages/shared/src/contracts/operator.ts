import { z } from 'zod';
import { cleanText, isSingleLine } from '../validation';
import { validateNewClientId } from '../client-id';
import { hexColorSchema, personNameSchema, EmailAddressSchema } from './common';

/**
 * What it takes to make an organisation and an account for someone else: the operator's
 * commands (`create-organisation`, `create-admin`) read their options through these, and the
 * organisations page can do the same. Messages are locale keys.
 */

const refineKey = (rule: (v: string) => string | true) => (value: string, ctx: z.RefinementCtx) => {
  const result = rule(value);
  if (result !== true) ctx.addIssue({ code: 'custom', message: result });
};

const orgNameSchema = (requiredKey: string, max: number) =>
  z
    .string()
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1, { message: requiredKey, abort: true })
        .max(max)
        .refine(isSingleLine, { message: 'validation:textControlCharacters' }),
    );

export const NewOrganizationSchema = z.object({
  /** Exactly as typed: what was checked is what is stored. */
  client_id: z.string().superRefine(refineKey(validateNewClientId)),
  org_name: orgNameSchema('validation:orgNameRequired', 100),
  /** Defaults to the name (cut to 30 characters). */
  org_short_name: orgNameSchema('validation:orgNameRequired', 30).optional(),
  primary_color: hexColorSchema.transform((v) => v.toLowerCase()).optional(),
});
export type NewOrganization = z.output<typeof NewOrganizationSchema>;

/** An account made for someone else: who they are; the password is theirs to choose. */
export const NewAccountSchema = z.object({
  email: EmailAddressSchema,
  first_name: personNameSchema('validation:firstNameRequired'),
  last_name: personNameSchema('validation:lastNameRequired'),
});
export type NewAccount = z.output<typeof NewAccountSchema>;
