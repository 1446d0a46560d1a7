import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACCOUNT_CLOSING_GRACE_DAYS,
  CloseAccountBodySchema,
  ClosingPreviewSchema,
  ClosingStartedSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  PendingClosingsQuerySchema,
  PendingClosingsSchema,
} from '@healthbook/shared';

const errors = { 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };

/** A patient's right to leave (issue 25 §4): closing one's own account, and the administrators' list of pending closings. */
export const accountClosingRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  app.get(
    '/api/v1/me/closing/',
    {
      schema: {
        tags: ['users'],
        summary: 'What closing your account would take with it',
        description: 'The family members only you manage (erased with your account), the upcoming appointments that would be cancelled, how many people of your care network would be told, and whether this account can be closed here (staff accounts cannot).',
        security: [{ bearerAuth: [] }],
        response: { 200: ClosingPreviewSchema, ...errors },
      },
    },
    async (request) => app.accountClosing.preview(request.signedIn()),
  );

  app.post(
    '/api/v1/me/closing/',
    {
      config: { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['users'],
        summary: 'Close your account',
        description:
          `Needs \`password\` (or \`code\`, as for second factors); missing or wrong: 400 {password|code: [...]}, nothing changes; five wrong tries in 15 minutes: 429. ` +
          `Every session of the account ends; it is erased after ${ACCOUNT_CLOSING_GRACE_DAYS} days unless its holder signs in again before (which cancels the closing). Both are e-mailed. ` +
          'One closing per account, however many requests arrive at once. Staff accounts: 403.',
        security: [{ bearerAuth: [] }],
        body: CloseAccountBodySchema,
        response: { 202: ClosingStartedSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), ...errors, 429: DetailErrorSchema },
      },
    },
    async (request, reply) => {
      const { erase_after } = await app.accountClosing.close(request.signedIn(), request.body);
      return reply.code(202).send({ detail: request.t('errors:accountClosingStarted', { days: ACCOUNT_CLOSING_GRACE_DAYS }), erase_after: new Date(erase_after).toISOString() });
    },
  );

  app.get(
    '/api/v1/account_closings/',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Pending account closings of an organisation',
        description: 'Organisation administrators: their organisation. Super administrators: any, by `org` (id). Another organisation: 404; anyone else: 403. Audited.',
        security: [{ bearerAuth: [] }],
        querystring: PendingClosingsQuerySchema,
        response: { 200: PendingClosingsSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), ...errors },
      },
    },
    async (request) => ({ results: await app.accountClosing.listPending(request.signedIn(), request.query.org) }),
  );
};
