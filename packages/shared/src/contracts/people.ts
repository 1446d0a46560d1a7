import { z } from 'zod';
import { readOnlyFields, writableBody } from './round-trip';
import { PROVIDER_BIOGRAPHY_MAX, PROVIDER_TEXT_MAX } from '../appointments';
import { SUPPORTED_LANGUAGES, USER_ROLES } from '../constants';
import { IdParamSchema, OrgRefSchema, personNameSchema, EmailAddressSchema, PageParamSchema, PageSizeParamSchema } from './common';
import { PATIENT_IMPORT_PROBLEMS, PERSON_STATUSES, RESET_MFA_REASON_MAX, STAFF_ROLES } from '../people';

/**
 * The people of an organisation (the administrator's home, `addUser/home`): every account and
 * pending invitation, staff invitations, roles, deactivation, unlocking, second-factor resets and
 * patients invited in bulk from a CSV file. Organisation admins act on their own organisation;
 * super admins on any (`org_id`, id or client id). Another organisation's person answers 404.
 */


export * from '../people';

const pageParam = PageParamSchema;
const pageSizeParam = PageSizeParamSchema;

export const OrgQuerySchema = z.object({ org_id: OrgRefSchema.optional().describe('the organisation (super admins; default: your own)') });

/** GET /api/v1/admin/people/ */
export const ListPeopleQuerySchema = z.object({
  org_id: OrgRefSchema.optional().describe('the organisation (super admins; default: your own)'),
  search: z.string().trim().max(200).optional().describe('words of the name or e-mail'),
  kind: z.enum(['all', 'patients', 'staff'], { message: 'validation:peopleKindInvalid' }).optional(),
  page: pageParam.optional(),
  page_size: pageSizeParam.optional(),
});
export type ListPeopleQuery = z.output<typeof ListPeopleQuerySchema>;

export const PersonSchema = z
  .object({
    /** `u<user id>` for an account, `i<invitation id>` for a patient invited who has no account yet. */
    key: z.string(),
    user_id: z.number().int().nullable(),
    invitation_id: z.number().int().nullable(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    kind: z.enum(['patient', 'staff']),
    roles: z.array(z.string()),
    is_superadmin: z.boolean(),
    statuses: z.array(z.enum(PERSON_STATUSES)),
    last_sign_in: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: 'Person' });
export type Person = z.infer<typeof PersonSchema>;

export const PeoplePageSchema = z.object({
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  org: z.object({ id: z.number().int(), name: z.string(), org_name: z.string() }),
  results: z.array(PersonSchema),
});
export type PeoplePage = z.infer<typeof PeoplePageSchema>;

export const PersonParamsSchema = z.object({ id: IdParamSchema });

const email = EmailAddressSchema;
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: 'validation:textTooLong' })
    .optional()
    .transform((v) => v || null);

/** POST /api/v1/admin/people/staff/ */
export const InviteStaffBodySchema = z
  .object({
    org_id: OrgRefSchema.optional(),
    first_name: personNameSchema('validation:firstNameRequired'),
    last_name: personNameSchema('validation:lastNameRequired'),
    email,
    role: z.enum(STAFF_ROLES, { message: 'validation:staffRoleInvalid' }),
    language: z.enum(SUPPORTED_LANGUAGES, { message: 'validation:languageInvalid' }).optional(),
    speciality: optionalText(PROVIDER_TEXT_MAX),
    credentials: optionalText(PROVIDER_TEXT_MAX),
    languages: z.array(z.string().trim().min(1).max(40)).max(20).optional(),
    biography: optionalText(PROVIDER_BIOGRAPHY_MAX),
  })
  .strict();
export type InviteStaffBody = z.input<typeof InviteStaffBodySchema>;

/** PUT /api/v1/admin/people/{id}/roles/ */
export const SetRolesBodySchema = writableBody(
  z
    .object({
      // As the answer gives them: "professional" (derived from provider and coach) may come back, and is ignored.
      roles: z.array(z.enum(USER_ROLES, { message: 'validation:roleInvalid' })).max(USER_ROLES.length),
      is_superadmin: z.boolean().optional().describe('super admins only'),
    })
    .strict(),
  // The person as GET answers it may come back whole: what is not a role is ignored.
  readOnlyFields(PersonSchema, ['key', 'user_id', 'invitation_id', 'first_name', 'last_name', 'email', 'kind', 'statuses', 'last_sign_in', 'created_at']),
);
export type SetRolesBody = z.input<typeof SetRolesBodySchema>;

/** POST /api/v1/admin/people/{id}/reset-mfa/ */
export const ResetMfaBodySchema = z
  .object({
    reason: z
      .string()
      .trim()
      .min(1, { message: 'validation:reasonRequired', abort: true })
      .max(RESET_MFA_REASON_MAX, { message: 'validation:textTooLong' }),
  })
  .strict();
export type ResetMfaBody = z.input<typeof ResetMfaBodySchema>;

/** The import's CSV upload: POST /api/v1/admin/patient-imports/?org_id=&file_name= with a text/csv body. */
export const CreatePatientImportQuerySchema = z.object({
  org_id: OrgRefSchema.optional(),
  file_name: z.string().trim().max(200).optional(),
});


export const PatientImportRowSchema = z.object({
  row: z.number().int().describe('the line of the file (the header is line 1)'),
  first_name: z.string(),
  last_name: z.string(),
  dob: z.string(),
  gender: z.string(),
  email: z.string(),
  language: z.string(),
  status: z.enum(['invalid', 'ready', 'sending', 'sent', 'skipped', 'failed']),
  problems: z.array(z.object({ field: z.string(), code: z.enum(PATIENT_IMPORT_PROBLEMS) })),
});
export type PatientImportRow = z.infer<typeof PatientImportRowSchema>;

export const PatientImportSchema = z
  .object({
    id: z.number().int(),
    org_id: z.number().int(),
    file_name: z.string(),
    status: z.enum(['preview', 'sending', 'done']),
    total: z.number().int(),
    counts: z.object({ invalid: z.number().int(), ready: z.number().int(), sending: z.number().int(), sent: z.number().int(), skipped: z.number().int(), failed: z.number().int() }),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    /** The rows asked for (?problems=1: only rows with problems), a page at a time. */
    rows: z.array(PatientImportRowSchema),
    rows_count: z.number().int(),
  })
  .meta({ id: 'PatientImport' });
export type PatientImport = z.infer<typeof PatientImportSchema>;

export const PatientImportParamsSchema = z.object({ id: IdParamSchema });
export const PatientImportQuerySchema = z.object({
  problems: z.enum(['0', '1'], { message: 'validation:invalidChoice' }).optional(),
  page: pageParam.optional(),
  page_size: pageSizeParam.optional(),
});
export type PatientImportQuery = z.output<typeof PatientImportQuerySchema>;
