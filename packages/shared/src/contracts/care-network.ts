import { z } from 'zod';
import { GENDER_KEYS } from '../constants';
import { CATEGORY_KEYS } from '../records/categories';
import { parseDob } from '../validation';
import { timeZoneSchema } from './calendar';
import { IdParamSchema, personNameSchema, EmailAddressSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

/**
 * The care network (feature `careclub`, pages careclub and caring-person-info): the people a
 * patient lets into their record, each with full or read-only access, optionally limited to some
 * record categories. The Terms: "Authorized individuals have full or read-only access. Read-only
 * individuals cannot communicate with providers."
 *
 * What an access level allows is decided in one place (apps/server patients.policy.ts); every
 * route that reads or writes a patient's data honours it. A client acts on a record it was let
 * into by naming the patient (`?patient=` / `patient` in a body) or, for every call at once, with
 * the `X-Patient-Id` header (the web app sends it while "Viewing <name>'s record").
 */

/** How long an invitation stays open (days). */
export const CARE_INVITATION_DAYS = 14;
/** How many people a patient may have in their network at once (pending and active). */
export const CARE_NETWORK_MAX = 20;

export const CARE_ACCESS_LEVELS = ['full', 'read-only'] as const;
export type CareAccess = (typeof CARE_ACCESS_LEVELS)[number];
export const CareAccessSchema = z.enum(CARE_ACCESS_LEVELS, { message: 'validation:careAccessInvalid' });

/** null: every category; else one or more record categories (no repeats). */
export const CareCategoriesSchema = z
  .array(z.enum(CATEGORY_KEYS as unknown as [string, ...string[]], { message: 'validation:careCategoryInvalid' }))
  .min(1, { message: 'validation:careCategoriesEmpty' })
  .max(CATEGORY_KEYS.length)
  .refine((list) => new Set(list).size === list.length, { message: 'validation:careCategoryRepeated' })
  .nullable();

const email = EmailAddressSchema;

/** POST /api/v1/care-network/ — invite a person into your record. */
export const InviteCareMemberBodySchema = z.object({
  name: personNameSchema('validation:careNameRequired').describe('how the patient calls the person ("Anna Smith")'),
  email,
  access: CareAccessSchema,
  categories: CareCategoriesSchema.optional().describe('limit to these record categories (default: all)'),
});
export type InviteCareMemberBody = z.input<typeof InviteCareMemberBodySchema>;

/** PATCH /api/v1/care-network/{id}/ — change what a person may do (effective at once). */
/** What a member's answer holds that PATCH cannot set (the person, the invitation's course): sent back, ignored. */
const MEMBER_READ_ONLY = ['id', 'name', 'email', 'status', 'kind', 'account_name', 'invited_at', 'accepted_at', 'expires_at'] as const;

export const UpdateCareMemberBodySchema = writableBody(z.object({ access: CareAccessSchema.optional(), categories: CareCategoriesSchema.optional() }), MEMBER_READ_ONLY)
  .refine((b) => b.access !== undefined || b.categories !== undefined, { message: 'validation:nothingToChange' });
export type UpdateCareMemberBody = z.input<typeof UpdateCareMemberBodySchema>;

export const CareMemberParamsSchema = z.object({ id: IdParamSchema });

export const CARE_MEMBER_STATUSES = ['pending', 'active', 'expired'] as const;

/** A person in the patient's care network, as the patient sees them. */
export const CareMemberSchema = z
  .object({
    id: z.number().int(),
    name: z.string().describe('the name the patient gave'),
    email: z.string().nullable(),
    access: CareAccessSchema,
    categories: z.array(z.string()).nullable(),
    status: z.enum(CARE_MEMBER_STATUSES).describe('pending: invited, not yet accepted; expired: not accepted in time'),
    kind: z.enum(['invitation', 'dependant']).describe('dependant: the person manages this record since they added it as a family member'),
    account_name: z.string().nullable().describe("the accepting account's own name, once accepted"),
    invited_at: z.string(),
    accepted_at: z.string().nullable(),
    expires_at: z.string().nullable(),
  })
  .meta({ id: 'CareMember' });
export type CareMember = z.infer<typeof CareMemberSchema>;
export const CARE_MEMBER_READ_ONLY = readOnlyFields(CareMemberSchema, MEMBER_READ_ONLY);
export const CareMemberListSchema = z.array(CareMemberSchema);

/** The single-use token of an invitation, sent in a body (never in a URL a server logs: the e-mail's link carries it in the fragment). */
export const CareTokenBodySchema = z.object({ token: z.string().trim().min(16, { message: 'validation:careTokenInvalid' }).max(128, { message: 'validation:careTokenInvalid' }) });
export type CareTokenBody = z.input<typeof CareTokenBodySchema>;

/** POST /api/v1/care-network/invitations/preview/ (public) — what an invitation offers, before accepting. */
export const CareInvitationPreviewSchema = z
  .object({
    patient_name: z.string(),
    inviter_name: z.string(),
    organization: z.object({ client_id: z.string(), name: z.string() }),
    email: z.string().describe('the address the invitation was sent to: only that account may accept it'),
    access: CareAccessSchema,
    categories: z.array(z.string()).nullable(),
    status: z.enum(['pending', 'active', 'expired', 'revoked', 'declined']),
    has_account: z.boolean().describe('an account with this address exists in the organisation: sign in; else join through sign-up'),
    expires_at: z.string().nullable(),
  })
  .meta({ id: 'CareInvitationPreview' });
export type CareInvitationPreview = z.infer<typeof CareInvitationPreviewSchema>;

/**
 * POST /api/v1/care-network/invitations/signup-code/ (public) — an invited person without an
 * account joins the organisation through the usual sign-up: this gives them a sign-up access code
 * for the invited address, with the names, date of birth and sex they give here.
 */
export const CareSignupCodeBodySchema = CareTokenBodySchema.extend({
  first_name: personNameSchema('validation:firstNameRequired'),
  last_name: personNameSchema('validation:lastNameRequired'),
  dob: z
    .string()
    .trim()
    .min(1, { message: 'validation:dobRequired', abort: true })
    .refine((v) => parseDob(v) !== null, { message: 'validation:dobFormat' })
    .transform((v) => parseDob(v)!)
    .refine((v) => v <= new Date().toISOString().slice(0, 10), { message: 'validation:dobFuture' }),
  gender: z.enum(GENDER_KEYS, { message: 'validation:genderInvalid' }),
});
export type CareSignupCodeBody = z.input<typeof CareSignupCodeBodySchema>;
export const CareSignupCodeSchema = z.object({ signup_code: z.string() });

/** POST /api/v1/care-network/invitations/accept/ (signed in, the invited address's account) — the patient whose record opens. */
export const CareAcceptedSchema = z.object({ patient_id: z.number().int(), patient_name: z.string(), access: CareAccessSchema });
export type CareAccepted = z.infer<typeof CareAcceptedSchema>;

/** The records the signed-in user was let into, as that person sees each grant (to leave one). */
export const CaringForSchema = z
  .object({
    patient_id: z.number().int(),
    patient_name: z.string(),
    access: CareAccessSchema,
    categories: z.array(z.string()).nullable(),
    kind: z.enum(['invitation', 'dependant']),
    since: z.string(),
  })
  .meta({ id: 'CaringFor' });
export type CaringFor = z.infer<typeof CaringForSchema>;
export const CaringForListSchema = z.array(CaringForSchema);

/**
 * GET /api/v1/care-network/access-log/ — "who saw my record": every access to the signed-in
 * patient's data by anyone but themselves (care network, share recipients), newest first.
 */
export const AccessLogQuerySchema = z.object({
  page: z.string().regex(/^[0-9]{1,6}$/, { message: 'validation:pageInvalid' }).transform(Number).optional(),
  tz: timeZoneSchema.optional().describe("the reader's time zone (IANA, e.g. Europe/Athens): the days lines are grouped by; UTC when absent"),
});
export const AccessLogEntrySchema = z
  .object({
    at: z.string().describe('the latest of the events the line stands for'),
    first_at: z.string().describe('the first of them (the same day)'),
    count: z.number().int().describe('how many alike events on that day the line stands for'),
    who: z.string().describe("the person's name, or how a share recipient was reached"),
    via: z.enum(['care-network', 'share', 'other']),
    action: z.string().describe('what was done: record_read, record_create, document_read, appointment_book, chat_message…'),
    outcome: z.enum(['success', 'denied']),
    text: z.string().describe('what happened, as a sentence in the reader language ("Sofia Antoniou read your chat 8 times")'),
    detail: z.string().nullable().describe('the category or item, in words'),
  })
  .meta({ id: 'AccessLogEntry' });
export type AccessLogEntry = z.infer<typeof AccessLogEntrySchema>;
export const AccessLogPageSchema = z.object({ count: z.number().int(), results: z.array(AccessLogEntrySchema) });
export type AccessLogPage = z.infer<typeof AccessLogPageSchema>;
