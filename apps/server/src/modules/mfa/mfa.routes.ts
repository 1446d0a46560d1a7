import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DetailErrorSchema, FieldErrorsSchema, MfaDeviceSchema, MfaUuidParamsSchema, RegisterMfaBodySchema } from '@healthbook/shared';
import { notFound } from '../../lib/http-errors';
import { MfaService } from './mfa.service';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };

/** Enrolling and removing second factors (a full sign-in is needed). */
const mfaRoutes: FastifyPluginAsyncZod<{ jwtSecret: string }> = async (app, opts) => {
  const mfa = new MfaService(app.db, app.mailer, opts.jwtSecret);

  const target = (request: FastifyRequest) => {
    const user = request.auth!.user;
    const lang = (user.settings as { language?: 'en' | 'el' }).language ?? request.lang;
    return { userId: user.id, email: user.email, name: user.first_name, orgName: user.org_name, orgShort: user.org_client_id, lang };
  };

  for (const [path, type] of [
    ['/api/v1/mfa/register/hotp/', 'email'],
    ['/api/v1/mfa/register/totp/', 'google'],
  ] as const) {
    app.post(
      path,
      {
        preHandler: app.requireAuth(),
        schema: {
          tags: ['mfa'],
          summary: type === 'email' ? 'Start enrolling e-mail codes (a code is e-mailed)' : 'Start enrolling an authenticator app',
          description: 'The device stays unconfirmed until POST /api/v1/verify/ with a valid code.',
          security: [{ bearerAuth: [] }],
          body: RegisterMfaBodySchema.extend({ device_type: z.literal(type) }),
          response: { 201: MfaDeviceSchema, ...errors },
        },
      },
      async (request, reply) => {
        const device = await mfa.register(target(request), type);
        await app.audit.record(request, { action: 'mfa_register', outcome: 'success', detail: { device_type: type } });
        return reply.code(201).send(device);
      },
    );
  }

  app.delete(
    '/api/v1/mfa/:uuid',
    {
      preHandler: app.requireAuth(),
      schema: {
        tags: ['mfa'],
        summary: 'Remove one of your second-factor devices',
        security: [{ bearerAuth: [] }],
        params: MfaUuidParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const removed = await mfa.remove(request.auth!.userId, request.params.uuid);
      if (!removed) throw notFound();
      await app.audit.record(request, { action: 'mfa_remove', outcome: 'success', detail: { device_type: removed.device_type, confirmed: removed.confirmed } });
      return reply.code(204).send(null);
    },
  );
};

export default mfaRoutes;
