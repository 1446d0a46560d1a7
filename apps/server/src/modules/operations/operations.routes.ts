import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, FieldErrorsSchema, OperationsQuerySchema, OperationsSummarySchema, SaveOperationBodySchema } from '@healthbook/shared';
import { summaryToCsv } from './operations.service';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const SUMMARY_NOTES =
  'Super admins only (everyone else: 403). organization_id, from and to (YYYY-MM-DD, at most 366 days), tz (IANA time zone for the days, default UTC). ' +
  'Figures come from the tables and the audit log as they are: patients and users (active accounts now), active users (signed in or used a feature in the 7 and 30 days ending with `to`), ' +
  'sign-ins, failed sign-ins and lockouts per day, second-factor adoption, invitations (pending now; used and expired in the period), feature uses (menu navigations) in the period.';

/** Saved operations and the super admin's operations dashboard (authenticated context). */
export const operationsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/operationsdashboard/save_operations/',
    {
      config: { rateLimit: { max: 300, timeWindow: '1 minute' } },
      schema: {
        tags: ['operations'],
        summary: 'Record that you opened a feature (navigation from the menu)',
        description: 'Your own organisation only (another: 404); an unknown feature: 400 {feature_id}; a feature you cannot use: 403. Answers 201 with the time recorded.',
        security: [{ bearerAuth: [] }],
        body: SaveOperationBodySchema,
        response: { 201: z.object({ feature_id: z.number().int(), at: z.string() }), ...errors },
      },
    },
    async (request, reply) => {
      const at = await app.features.recordOperation(request.signedIn(), request.body.organization_id, request.body.feature_id);
      return reply.code(201).send({ feature_id: request.body.feature_id, at: at.toISOString() });
    },
  );

  app.get(
    '/api/v1/operationsdashboard/summary/',
    {
      config: { feature: 'operations' },
      schema: {
        tags: ['operations'],
        summary: 'Figures of one organisation for a period (super admins)',
        description: SUMMARY_NOTES,
        security: [{ bearerAuth: [] }],
        querystring: OperationsQuerySchema,
        response: { 200: OperationsSummarySchema, ...errors },
      },
    },
    async (request) => app.operations.summary(request.signedIn(), request.query),
  );

  app.get(
    '/api/v1/operationsdashboard/export/',
    {
      config: { feature: 'operations' },
      schema: {
        tags: ['operations'],
        summary: 'The same figures as CSV (super admins)',
        description: `${SUMMARY_NOTES} One value per row: organization, metric, date, feature, value.`,
        security: [{ bearerAuth: [] }],
        querystring: OperationsQuerySchema,
        response: { 200: z.string().describe('text/csv'), ...errors },
      },
    },
    async (request, reply) => {
      const summary = await app.operations.summary(request.signedIn(), request.query);
      const name = `operations-${summary.organization.name}-${summary.period.from}-${summary.period.to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .serializer((payload) => payload as string)
        .send(summaryToCsv(summary));
    },
  );
};
