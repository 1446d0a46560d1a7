import { z } from 'zod';
import { GENDER_KEYS } from '../constants';
import { isStrongPassword, parseDob } from '../validation';
import { OrgRefSchema, personNameSchema, EmailAddressSchema } from './common';
import { OptionSchema } from './users';

const orgRef = OrgRefSchema;
const isoDob = z
  .string()
  .trim()
  .min(1, { message: 'validation:dobRequired', abort: true })
  .refine((v) => parseDob(v) !== null, { message: 'validation:dobFormat' })
  .transform((v) => parseDob(v)!)
  .refine((v) => v <= new Date().toISOString().slice(0, 10), { message: 'validation:dobFuture' });
const email = EmailAddressSchema;
const name = (required: string) => personNameSchema(required);

/** POST /api/v1/admin/invitations/ */
export const CreateInvitationBodySchema = z.object({
  first_name: name('validation:firstNameRequired'),
  last_name: name('validation:lastNameRequired'),
  dob: isoDob,
  gender: z.enum(GENDER_KEYS, { message: 'validation:genderInvalid' }),
  email,
  org_id: orgRef.optional(),
});
export type CreateInvitationBody = z.input<typeof CreateInvitationBodySchema>;

export const InvitationSchema = z
  .object({
    id: z.number().int(),
    org_id: z.number().int(),
    first_name: z.string(),
    last_name: z.string(),
    dob: z.string(),
    gender: OptionSchema,
    email: z.string(),
    signup_code: z.string().optional(),
    status: z.enum(['pending', 'used', 'expired']),
    expires_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof InvitationSchema>;

/** POST /api/v1/users/validate/ */
export const ValidateCodeBodySchema = z.object({
  org_id: orgRef,
  signup_code: z.string().trim().min(1, { message: 'validation:accessCodeRequired' }).max(64),
});
export type ValidateCodeBody = z.input<typeof ValidateCodeBodySchema>;

/** What the sign-up page is pre-filled with. */
export const InvitationDetailsSchema = z.object({
  user_id: z.number().int().nullable(),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string(),
  gender: OptionSchema,
  email: z.string(),
  signup_code: z.string(),
  org_id: z.number().int(),
});
export type InvitationDetails = z.infer<typeof InvitationDetailsSchema>;

/** POST /api/v1/users/register/ — names, sex and dob come from the invitation; what is sent must match it. */
export const RegisterBodySchema = z.object({
  user_id: z.number().int().nullable().optional(),
  first_name: z.string().max(100).optional(),
  last_name: z.string().max(100).optional(),
  sex: z.union([z.string(), OptionSchema]).optional(),
  dob: z.string().optional(),
  email,
  password: z
    .string()
    .min(1, { message: 'validation:passwordRequired' })
    .max(256)
    .refine(isStrongPassword, { message: 'validation:passwordWeak' }),
  signup_code: z.string().trim().min(1, { message: 'validation:accessCodeRequired' }).max(64),
  is_terms_privacy_policy_accepted: z.literal(true, { message: 'validation:termsRequired' }),
  org_id: orgRef.optional(),
});
export type RegisterBody = z.input<typeof RegisterBodySchema>;

/** POST /api/v1/users/confirm_email/ (the link in the confirmation email carries uid and token). */
export const ConfirmEmailBodySchema = z.object({ uid: z.string().min(1).max(64), token: z.string().min(1).max(256) });

/** POST /api/v1/users/coderetrieval/ — DOB as typed (MM/DD/YYYY) or YYYY-MM-DD. */
export const CodeRetrievalBodySchema = z.object({
  org_id: orgRef,
  first_name: z.string().trim().min(1, { message: 'validation:firstNameRequired', abort: true }).max(100).regex(/^[a-zA-Z]+$/, {
    message: 'validation:nameFormat',
  }),
  last_name: z.string().trim().min(1, { message: 'validation:lastNameRequired', abort: true }).max(100).regex(/^[a-zA-Z]+$/, {
    message: 'validation:nameFormat',
  }),
  DOB: isoDob,
});
export type CodeRetrievalBody = z.input<typeof CodeRetrievalBodySchema>;

/** GET /api/v1/admin/invitations/ — a super admin may name another organisation (id or client id). */
export const ListInvitationsQuerySchema = z.object({ org_id: OrgRefSchema.optional() });
export type ListInvitationsQuery = z.input<typeof ListInvitationsQuerySchema>;
export const InvitationListSchema = z.array(InvitationSchema);
