import { z } from 'zod';
import { FEATURE_STATUSES } from '../features';
import { IdParamSchema, IdSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

export const FeatureStatusSchema = z.enum(FEATURE_STATUSES, { message: 'validation:featureStatusInvalid' });

/** A feature as the spec's client reads it: the organisation's (effective) status, the name in the reader's language. */
export const FeatureEntrySchema = z
  .object({
    id: z.number().int(),
    key: z.string().describe('stable identifier of the feature'),
    feature_route: z.string().nullable().describe('the page under /{clientId}/; null for an action or an external link'),
    display_name: z.string(),
    feature_status: FeatureStatusSchema.describe('active: shown and usable; inactive: shown as "Coming Soon!"; disabled: hidden, its pages and API refused'),
    icon_name: z.string(),
  })
  .meta({ id: 'FeatureEntry' });
export type FeatureEntry = z.infer<typeof FeatureEntrySchema>;
export const FeatureListSchema = z.array(FeatureEntrySchema).meta({ id: 'FeatureList' });

/** POST /api/v1/features/get-features/ */
export const GetFeaturesBodySchema = z.object({ organization_id: IdSchema });

/** For administrators: what the organisation chose, and what members get. */
export const FeatureSettingSchema = FeatureEntrySchema.extend({
  configured_status: FeatureStatusSchema.describe('what the organisation chose'),
  available: z.boolean().describe('the feature’s pages exist in this version (otherwise members see "Coming Soon!")'),
  core: z.boolean().describe('always on; its status cannot be changed'),
  updated_at: z.string().nullable(),
}).meta({ id: 'FeatureSetting' });
export type FeatureSetting = z.infer<typeof FeatureSettingSchema>;
export const FeatureSettingListSchema = z.array(FeatureSettingSchema);

/** GET /api/v1/features/?organization_id= (administrators) */
export const ListFeatureSettingsQuerySchema = z.object({ organization_id: IdParamSchema.optional() });

/** What a feature setting's answer holds that an administrator cannot set: sent back, ignored. */
export const FEATURE_SETTING_READ_ONLY = readOnlyFields(FeatureSettingSchema, [
  'id',
  'key',
  'feature_route',
  'display_name',
  'icon_name',
  'available',
  'core',
  'updated_at',
]);

/**
 * PUT /api/v1/features/{id}/ (organization_id: default your own organisation, as for GET).
 * feature_status is the choice; a setting sent back as GET answers it also carries
 * configured_status, which is then the choice, and feature_status must be what members get with
 * it (they differ for a feature not available yet: 400 naming both when they do not agree).
 */
export const UpdateFeatureBodySchema = writableBody(
  z.object({
    organization_id: IdSchema.optional().describe('default: your own organisation'),
    feature_status: FeatureStatusSchema,
    configured_status: FeatureStatusSchema.optional().describe('the choice, as GET answers it; feature_status must then be what members get with it'),
  }),
  FEATURE_SETTING_READ_ONLY,
);
export const FeatureIdParamsSchema = z.object({ id: IdParamSchema });

/** POST /api/v1/operationsdashboard/save_operations/ */
export const SaveOperationBodySchema = z.object({ organization_id: IdSchema, feature_id: IdSchema });
