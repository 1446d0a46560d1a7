import { z } from 'zod';
import { ORGANIZATION_NOT_FOUND } from '../constants';
import { IdParamSchema } from './common';
import { validateNewClientId } from '../client-id';
import { primaryColorProblem } from '../organizations/brand-contrast';
import { readOnlyFields, writableBody } from './round-trip';

export const OrganizationNameParamsSchema = z.object({
  name: z.string().min(1).max(64),
});

/** A crisis line: its number and its name in each language. */
export const CrisisLineSchema = z.object({
  number: z.string().trim().regex(/^\+?[0-9][0-9 -]{1,19}$/, { message: 'validation:phoneInvalid' }),
  name: z.object({ en: z.string().min(1).max(120), el: z.string().min(1).max(120) }),
});
export type CrisisLine = z.infer<typeof CrisisLineSchema>;

/** The organisation detail of the spec, plus the branding the web app needs (name, primary_color). */
export const OrganizationDetailSchema = z
  .object({
    org: z.number().int(),
    name: z.string().describe('the client id, lower case'),
    org_name: z.string(),
    org_short_name: z.string(),
    org_logo: z.string().nullable().describe('file name of the logo'),
    logo_url: z.string().nullable(),
    favicon_url: z.string().nullable(),
    primary_color: z.string().nullable(),
    video_channel_url: z.string().nullable().describe("the organisation's external video channel (the menu's Videos item); null: no such item"),
    emergency_number: z.string().describe('the emergency number its patients call'),
    crisis_lines: z.array(CrisisLineSchema).describe('crisis lines, shown first whenever someone may be at risk'),
    support_email: z.string().nullable().describe("the help area's contact address"),
    support_phone: z.string().nullable(),
    user_org_details: z.array(z.object({ org: z.number().int() })),
    active: z.boolean().describe('false while a super admin has deactivated the organisation: its members cannot sign in (the web app shows a page saying so)'),
  })
  .meta({ id: 'OrganizationDetail' });
export type OrganizationDetail = z.infer<typeof OrganizationDetailSchema>;

/** What the original product answers for an unknown name: the org field says so. */
export const OrganizationNotFoundSchema = z
  .object({
    org: z.literal(ORGANIZATION_NOT_FOUND),
    name: z.string(),
    org_name: z.null(),
    org_short_name: z.null(),
    org_logo: z.null(),
    logo_url: z.null(),
    favicon_url: z.null(),
    primary_color: z.null(),
    video_channel_url: z.null(),
    emergency_number: z.null(),
    crisis_lines: z.array(z.never()),
    support_email: z.null(),
    support_phone: z.null(),
    user_org_details: z.array(z.never()),
    active: z.literal(false),
  })
  .meta({ id: 'OrganizationNotFound' });
export type OrganizationNotFound = z.infer<typeof OrganizationNotFoundSchema>;

export const OrganizationLookupSchema = z.union([OrganizationDetailSchema, OrganizationNotFoundSchema]);
export type OrganizationLookup = z.infer<typeof OrganizationLookupSchema>;


export const OrganizationListSchema = z.array(OrganizationDetailSchema);

export const OrganizationAssetParamsSchema = z.object({
  name: z.string().min(1).max(64),
  asset: z.enum(['logo', 'favicon']),
});

/** PUT /api/v1/organizations/{id}/settings/ (administrators): an https address, or null to remove it. */
const PhoneNumberSchema = z.string().trim().regex(/^\+?[0-9][0-9 -]{1,19}$/, { message: 'validation:phoneInvalid' });
/** What the organisation's answer holds that its settings cannot change (names, branding): sent back, ignored. */
export const ORGANIZATION_READ_ONLY = readOnlyFields(OrganizationDetailSchema, [
  'org',
  'name',
  'org_name',
  'org_short_name',
  'org_logo',
  'logo_url',
  'favicon_url',
  'primary_color',
  'user_org_details',
  'active',
]);
const SETTINGS_SHAPE = {
  video_channel_url: z
    .string()
    .trim()
    .max(500)
    .regex(/^https:\/\/[a-z0-9.-]+(:[0-9]{1,5})?(\/[^\s]*)?$/i, { message: 'validation:urlInvalid' })
    .nullable()
    .optional(),
  emergency_number: PhoneNumberSchema.optional(),
  crisis_lines: z.array(CrisisLineSchema).max(5).optional(),
  support_email: z.email({ message: 'validation:emailInvalid' }).max(254).nullable().optional(),
  support_phone: PhoneNumberSchema.nullable().optional(),
};
export const OrganizationSettingsBodySchema = writableBody(z.object(SETTINGS_SHAPE), ORGANIZATION_READ_ONLY);
export type OrganizationSettingsBody = z.infer<typeof OrganizationSettingsBodySchema>;
export const OrganizationIdParamsSchema = z.object({ id: IdParamSchema });

// ---- Super admins: the organisations themselves (/api/v1/admin/organizations/) ----

/** A client id of a new or renamed organisation: lower-case letters, digits and "-", not a word the router uses. */
export const ClientIdSchema = z
  .string({ message: 'validation:required' })
  .trim()
  .superRefine((value, ctx) => {
    const problem = validateNewClientId(value);
    if (problem !== true) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A primary colour (#rrggbb) on which text reads at WCAG AA in the light and the dark theme. */
export const PrimaryColorSchema = z
  .string({ message: 'validation:required' })
  .trim()
  .superRefine((value, ctx) => {
    const problem = primaryColorProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem.key, params: problem.values });
  });

const OrgNameSchema = z.string({ message: 'validation:required' }).trim().min(1, { message: 'validation:required' }).max(120);
const OrgShortNameSchema = z.string({ message: 'validation:required' }).trim().min(1, { message: 'validation:required' }).max(40);

/** An organisation as super admins manage it: its branding and settings, its status and its people counted. */
export const AdminOrganizationSchema = OrganizationDetailSchema.extend({
  deactivated_at: z.string().nullable().describe('ISO 8601; null while active'),
  created_at: z.string().describe('ISO 8601'),
  users: z.number().int().describe('accounts of the organisation (patients and staff)'),
  patients: z.number().int().describe('patients of the organisation (with or without an account)'),
}).meta({ id: 'AdminOrganization' });
export type AdminOrganization = z.infer<typeof AdminOrganizationSchema>;
export const AdminOrganizationListSchema = z.array(AdminOrganizationSchema);

/** What of an organisation's answer a super admin cannot set through its body (assets have their own routes). */
export const ADMIN_ORGANIZATION_READ_ONLY = readOnlyFields(AdminOrganizationSchema, [
  'org',
  'org_logo',
  'logo_url',
  'favicon_url',
  'user_org_details',
  'active',
  'deactivated_at',
  'created_at',
  'users',
  'patients',
]);

/** POST /api/v1/admin/organizations/: a new organisation (its assets are uploaded afterwards). */
export const CreateOrganizationBodySchema = z
  .object({
    name: ClientIdSchema.describe('the client id'),
    org_name: OrgNameSchema,
    org_short_name: OrgShortNameSchema,
    primary_color: PrimaryColorSchema,
    ...SETTINGS_SHAPE,
  })
  .strict()
  .meta({ id: 'CreateOrganizationBody' });
export type CreateOrganizationBody = z.input<typeof CreateOrganizationBodySchema>;

/** PATCH /api/v1/admin/organizations/{id}/: each field sent is changed, the others kept. */
export const UpdateOrganizationBodySchema = writableBody(
  z
    .object({
      name: ClientIdSchema.optional(),
      org_name: OrgNameSchema.optional(),
      org_short_name: OrgShortNameSchema.optional(),
      primary_color: PrimaryColorSchema.optional(),
      ...SETTINGS_SHAPE,
    })
    .strict()
    .meta({ id: 'UpdateOrganizationBody' }),
  ADMIN_ORGANIZATION_READ_ONLY,
);
export type UpdateOrganizationBody = z.input<typeof UpdateOrganizationBodySchema>;
export type UpdateOrganizationFields = z.output<typeof UpdateOrganizationBodySchema>;

export const ORGANIZATION_ASSETS = ['logo', 'favicon'] as const;
export type OrganizationAsset = (typeof ORGANIZATION_ASSETS)[number];
export const OrganizationAssetUploadParamsSchema = z.object({ id: IdParamSchema, asset: z.enum(ORGANIZATION_ASSETS, { message: 'validation:invalid' }) });
