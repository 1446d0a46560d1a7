import { z } from 'zod';
import { GENDER_KEYS } from '../constants';
import { FAMILY_RELATIONSHIPS } from '../family-members';
import { isValidEmail, parseDob } from '../validation';
import { IdParamSchema, personNameSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

/**
 * Family members (feature `careclub`, page family-members): people without an account of their
 * own — a child, a parent who does not use the product — whose records the user who added them
 * manages with full access. Each is a patient of its own (records, calendar, appointments,
 * documents); the manager opens it like any record they were let into (`?patient=` or the
 * `X-Patient-Id` header). A family member can later be given an account of their own: an
 * ordinary sign-up invitation to their e-mail; signing up with its code makes the record theirs,
 * and the manager's access becomes a care-network grant the new account holder controls.
 */

export const FamilyRelationshipSchema = z.enum(FAMILY_RELATIONSHIPS, { message: 'validation:familyRelationshipInvalid' });

/** A date of birth as sign-up takes it (YYYY-MM-DD or MM/DD/YYYY), not in the future. */
const dob = z
  .string({ message: 'validation:dobRequired' })
  .trim()
  .min(1, { message: 'validation:dobRequired', abort: true })
  .refine((v) => parseDob(v) !== null, { message: 'validation:dobFormat', abort: true })
  .transform((v) => parseDob(v)!)
  .refine((v) => v <= new Date().toISOString().slice(0, 10), { message: 'validation:dobFuture' });

const gender = z.enum(GENDER_KEYS, { message: 'validation:genderInvalid' });

const fields = {
  first_name: personNameSchema('validation:firstNameRequired'),
  last_name: personNameSchema('validation:lastNameRequired'),
  dob,
  gender,
  relationship: FamilyRelationshipSchema,
};

/** POST /api/v1/family-members/ — add a family member (a new record you manage). */
export const CreateFamilyMemberBodySchema = z.object(fields);
export type CreateFamilyMemberBody = z.input<typeof CreateFamilyMemberBodySchema>;

/** PATCH /api/v1/family-members/{id}/ — change names, date of birth, sex or relationship (while they have no account). */
const MEMBER_READ_ONLY = ['patient_id', 'has_account', 'invited', 'created_at'] as const;
export const UpdateFamilyMemberBodySchema = writableBody(
  z.object({
    first_name: fields.first_name.optional(),
    last_name: fields.last_name.optional(),
    dob: fields.dob.optional(),
    gender: fields.gender.optional(),
    relationship: fields.relationship.optional(),
  }),
  MEMBER_READ_ONLY,
).refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'validation:familyNothingToChange' });
export type UpdateFamilyMemberBody = z.input<typeof UpdateFamilyMemberBodySchema>;

export const FamilyMemberParamsSchema = z.object({ id: IdParamSchema.describe("the family member's patient id") });

/** POST /api/v1/family-members/{id}/invite/ — give the family member an account of their own. */
export const InviteFamilyMemberBodySchema = z.object({
  email: z
    .string({ message: 'validation:emailRequired' })
    .trim()
    .min(1, { message: 'validation:emailRequired', abort: true })
    .max(254, { message: 'validation:emailInvalid' })
    .refine(isValidEmail, { message: 'validation:emailInvalid' })
    .transform((v) => v.toLowerCase()),
});
export type InviteFamilyMemberBody = z.input<typeof InviteFamilyMemberBodySchema>;

export const FamilyMemberSchema = z
  .object({
    patient_id: z.number().int().describe('open their record with ?patient= or the X-Patient-Id header'),
    first_name: z.string(),
    last_name: z.string(),
    dob: z.string().nullable(),
    gender: gender.nullable(),
    relationship: FamilyRelationshipSchema,
    has_account: z.boolean().describe('true once they signed up with their invitation: the record is theirs, your access is theirs to change'),
    invited: z
      .object({
        email: z.string(),
        status: z.enum(['pending', 'expired']),
        expires_at: z.string(),
      })
      .nullable()
      .describe('the invitation to an account of their own, while not used'),
    created_at: z.string(),
  })
  .meta({ id: 'FamilyMember' });
export type FamilyMember = z.infer<typeof FamilyMemberSchema>;
/** What a family member's answer holds that PATCH cannot set (the invitation has its own route): sent back, ignored. */
export const FAMILY_MEMBER_READ_ONLY = readOnlyFields(FamilyMemberSchema, MEMBER_READ_ONLY);
export const FamilyMemberListSchema = z.array(FamilyMemberSchema);
