import { z } from 'zod';
import { ORGANIZATION_NOT_FOUND } from '../constants';
import { IdParamSchema } from './common';
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
]);
export const OrganizationSettingsBodySchema = writableBody(z.object({
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
}), ORGANIZATION_READ_ONLY);
export type OrganizationSettingsBody = z.infer<typeof OrganizationSettingsBodySchema>;
export const OrganizationIdParamsSchema = z.object({ id: IdParamSchema });
