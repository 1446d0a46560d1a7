import { z } from 'zod';
import { isStrongPassword } from '../validation';

/**
 * The set-password link of an account made without a password (by the operator's
 * `create-admin`/`create-organisation` commands, or an administrator inviting staff): its uid
 * and token travel in request bodies, never in an API address.
 */
export const AccountSetupLinkSchema = z.object({
  uid: z.string().min(1).max(64),
  token: z.string().min(1).max(256),
});
export type AccountSetupLink = z.infer<typeof AccountSetupLinkSchema>;

/** POST /api/v1/account_setup/: the password, by the sign-up rule. */
export const AccountSetupBodySchema = AccountSetupLinkSchema.extend({
  password: z.string().max(256).refine(isStrongPassword, { message: 'validation:passwordWeak' }),
});
export type AccountSetupBody = z.infer<typeof AccountSetupBodySchema>;

/** A live link: whose account it sets up (shown on the page, so the person knows which one). */
export const AccountSetupCheckAnswerSchema = z
  .object({
    email: z.string(),
    first_name: z.string(),
    org_name: z.string(),
    client_id: z.string(),
  })
  .meta({ id: 'AccountSetupCheckAnswer' });
export type AccountSetupCheckAnswer = z.infer<typeof AccountSetupCheckAnswerSchema>;

/** The password is set: where to sign in. */
export const AccountSetupAnswerSchema = z
  .object({ detail: z.string(), email: z.string(), client_id: z.string() })
  .meta({ id: 'AccountSetupAnswer' });
export type AccountSetupAnswer = z.infer<typeof AccountSetupAnswerSchema>;

/** Why a link that existed no longer works (410). */
export const ACCOUNT_SETUP_LINK_REFUSALS = ['expired', 'used'] as const;
export type AccountSetupLinkRefusal = (typeof ACCOUNT_SETUP_LINK_REFUSALS)[number];
export const AccountSetupGoneSchema = z.object({ detail: z.string(), reason: z.enum(ACCOUNT_SETUP_LINK_REFUSALS) }).meta({ id: 'AccountSetupGone' });
