import { z } from 'zod';
import { isStrongPassword, isValidEmail } from '../validation';
import { OrgRefSchema, EmailAddressSchema } from './common';
import { LimitedUserSchema, UserDtoSchema } from './users';

/** Sign-in form and body (POST /api/v1/login/). Messages are locale keys of the validation namespace. */
export const LoginFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, { message: 'validation:emailRequired' })
    .refine(isValidEmail, { message: 'validation:emailInvalid' }),
  password: z.string().min(1, { message: 'validation:passwordRequired' }),
});
export type LoginForm = z.infer<typeof LoginFormSchema>;

/** `org` is the organisation's id (as in organization_detail) or its client id. */
export const LoginBodySchema = LoginFormSchema.extend({
  email: z.string().trim().min(1, { message: 'validation:emailRequired' }).max(254),
  password: z.string().min(1, { message: 'validation:passwordRequired' }).max(256),
  org: OrgRefSchema,
});
export type LoginBody = z.input<typeof LoginBodySchema>;

export const AccessLevelSchema = z.enum(['full', 'limited']);
export type AccessLevel = z.infer<typeof AccessLevelSchema>;

/** What the client reads from the access token. */
export interface AccessClaims {
  user_id: number;
  org: number;
  access: AccessLevel;
  token_type: 'access';
  sid: string;
  exp: number;
  iat: number;
}

export const TokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof TokenPairSchema>;

/**
 * The sign-in answer. With a second factor (access limited) the user is only what the
 * verification page needs; the whole record comes with the verification.
 */
export const LoginAnswerSchema = TokenPairSchema.extend({ user: z.union([UserDtoSchema, LimitedUserSchema]) }).meta({ id: 'LoginAnswer' });
export type LoginAnswer = z.infer<typeof LoginAnswerSchema>;

/** The refresh token: in the body (API clients), else the HttpOnly cookie the web app holds. */
export const RefreshBodySchema = z.object({ refresh: z.string().min(1).max(4096).optional() }).default({});
export type RefreshBody = z.infer<typeof RefreshBodySchema>;

/** Six digits; at sign-in the answer is the user data with a new full pair. */
export const VerifyBodySchema = z.object({
  code: z.string().trim().regex(/^[0-9]{6}$/, { message: 'validation:codeInvalid' }),
});
export type VerifyBody = z.infer<typeof VerifyBodySchema>;
export const VerifyAnswerSchema = UserDtoSchema.extend({ access: z.string().optional(), refresh: z.string().optional() }).meta({
  id: 'VerifyAnswer',
});
export type VerifyAnswer = z.infer<typeof VerifyAnswerSchema>;

export const ForgotPasswordBodySchema = z.object({
  org_id: OrgRefSchema,
  email: z.string().trim().min(1, { message: 'validation:emailAddressRequired', abort: true }).max(254).refine(isValidEmail, {
    message: 'validation:emailAddressInvalid',
  }),
});
export type ForgotPasswordBody = z.input<typeof ForgotPasswordBodySchema>;

export const ResetPasswordConfirmBodySchema = z.object({
  uid: z.string().min(1).max(64),
  token: z.string().min(1).max(256),
  password: z.string().max(256).refine(isStrongPassword, { message: 'validation:passwordWeak' }),
});
export type ResetPasswordConfirmBody = z.infer<typeof ResetPasswordConfirmBodySchema>;

export const ChangePasswordBodySchema = z.object({
  current_password: z.string().min(1, { message: 'validation:passwordRequired' }).max(256),
  password: z.string().max(256).refine(isStrongPassword, { message: 'validation:passwordWeak' }),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const MessageAnswerSchema = z.object({ detail: z.string() });

/**
 * Proof that the person at the keyboard is the account holder, asked again before a sensitive
 * change (second factors, e-mail address): the password, or a code from a second factor the
 * user already has.
 */
export const ReauthFieldsSchema = z.object({
  password: z.string().max(256).optional(),
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, { message: 'validation:codeInvalid' })
    .optional(),
});
export type ReauthFields = z.infer<typeof ReauthFieldsSchema>;

/** POST /api/v1/me/email/: the new address, confirmed by a link sent to it. */
export const ChangeEmailBodySchema = ReauthFieldsSchema.extend({
  email: EmailAddressSchema,
});
export type ChangeEmailBody = z.input<typeof ChangeEmailBodySchema>;
