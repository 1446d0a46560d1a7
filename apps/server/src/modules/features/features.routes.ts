import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '../../lib/serializer';
import {
  DetailErrorSchema,
  FeatureIdParamsSchema,
  FeatureListSchema,
  FeatureSettingListSchema,
  FeatureSettingSchema,
  FieldErrorsSchema,
  GetFeaturesBodySchema,
  ListFeatureSettingsQuerySchema,
  UpdateFeatureBodySchema,
  effectiveStatus,
  featureDefinition,
} from '@healthbook/shared';
import { FieldError } from '../../lib/http-errors';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };

/** The features of an organisation: what members get, and the administrators' switches (authenticated context). */
export const featuresRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/features/get-features/',
    {
      schema: {
        tags: ['features'],
        summary: "Your organisation's features, with what you get of each",
        description:
          'feature_status: active (shown, usable), inactive (shown as "Coming Soon!": not offered, or its pages do not exist in this version), disabled (hidden; its pages go to the dashboard and its API answers 403). ' +
          'display_name is in the request language. Members of that organisation only: another organisation_id answers 404. Super-admin-only features (operations) are listed for super admins only.',
        security: [{ bearerAuth: [] }],
        body: GetFeaturesBodySchema,
        response: { 200: FeatureListSchema, ...errors },
      },
    },
    async (request, reply) => sendSerialized(reply as FastifyReply, await app.features.listJson(request.signedIn(), request.body.organization_id)),
  );

  app.get(
    '/api/v1/features/',
    {
      schema: {
        tags: ['features'],
        summary: "An organisation's feature settings (administrators)",
        description:
          'For organisation admins (their organisation; another answers 404) and super admins (any, by organization_id). configured_status is what the organisation chose; feature_status what members get.',
        security: [{ bearerAuth: [] }],
        querystring: ListFeatureSettingsQuerySchema,
        response: { 200: FeatureSettingListSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = request.signedIn();
      return app.features.settings(ctx, request.query.organization_id ?? ctx.actor.orgId);
    },
  );

  app.put(
    '/api/v1/features/:id/',
    {
      schema: {
        tags: ['features'],
        summary: "Set a feature's status for an organisation (administrators)",
        description:
          'Organisation admins for their organisation (organization_id: default your own), super admins for any. The setting as GET answers it may be sent back: its read-only fields are ignored. Another organisation: 404; anyone else: 403; a core feature (dashboard, account settings, signing out, operations): 400. Audited; members see it on their next page load.',
        security: [{ bearerAuth: [] }],
        params: FeatureIdParamsSchema,
        body: UpdateFeatureBodySchema,
        response: { 200: FeatureSettingSchema, ...errors },
      },
    },
    async (request) => {
      const ctx = request.signedIn();
      const { organization_id, feature_status, configured_status } = request.body;
      let status = feature_status;
      if (configured_status !== undefined) {
        // The setting as GET answers it: configured_status is the choice, feature_status what members get with it.
        const definition = featureDefinition(app.features.keyOf(request.params.id) ?? '');
        if (definition && effectiveStatus(definition, configured_status) !== feature_status) {
          throw new FieldError({ feature_status: [{ key: 'validation:fieldDisagrees', vars: { field: 'feature_status', other: 'configured_status' } }] });
        }
        status = configured_status;
      }
      return app.features.setStatus(ctx, request.params.id, organization_id ?? ctx.actor.orgId, status);
    },
  );
};
