import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, FieldErrorsSchema, MfaDeviceSchema, MfaUuidParamsSchema, ReauthFieldsSchema, RegisterMfaBodySchema } from '@healthbook/shared';
import { notFound } from '../../lib/http-errors';
import { endLinksOf } from '../connection-hub/link-ends';
import { mailTarget } from '../users/users.presenter';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 429: DetailErrorSchema };
const REAUTH_NOTE =
  'Asks again who is at the keyboard: `password`, or `code` (an authenticator code, or one e-mailed by POST /api/v1/me/reauth_code/). Missing or wrong: 400 {password|code: [...]}; five wrong tries in 15 minutes: 429.';

/** Enrolling and removing second factors (authenticated context; a full sign-in is needed). */
export const mfaRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const [path, type] of [
    ['/api/v1/mfa/register/hotp/', 'email'],
    ['/api/v1/mfa/register/totp/', 'google'],
  ] as const) {
    app.post(
      path,
      {
        schema: {
          tags: ['mfa'],
          summary: type === 'email' ? 'Start enrolling e-mail codes (a code is e-mailed)' : 'Start enrolling an authenticator app',
          description: `The device stays unconfirmed until POST /api/v1/verify/ with a valid code; then a notice is e-mailed. ${REAUTH_NOTE}`,
          security: [{ bearerAuth: [] }],
          body: RegisterMfaBodySchema.extend({ device_type: z.literal(type) }).extend(ReauthFieldsSchema.shape),
          response: { 201: MfaDeviceSchema, ...errors },
        },
      },
      async (request, reply) => {
        const ctx = request.signedIn();
        await app.auth.confirmIdentity(ctx, request.body);
        const device = await app.mfa.register(mailTarget(ctx.actor.user, ctx.lang), type);
        await app.audit.record(ctx, { action: 'mfa_register', outcome: 'success', detail: { device_type: type } });
        return reply.code(201).send(device);
      },
    );
  }

  app.delete(
    '/api/v1/mfa/:uuid',
    {
      schema: {
        tags: ['mfa'],
        summary: 'Remove one of your second-factor devices',
        description: `A confirmed device: ${REAUTH_NOTE} (JSON body). A device still being enrolled (never confirmed) is removed without. A notice is e-mailed when a confirmed device goes; links with accounts of other organisations (Connection Hub) then end, and both accounts are told.`,
        security: [{ bearerAuth: [] }],
        params: MfaUuidParamsSchema,
        body: ReauthFieldsSchema.nullish(),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const ctx = request.signedIn();
      const device = await app.mfa.findDevice(ctx.actor.user, request.params.uuid);
      if (!device) throw notFound();
      if (device.confirmed) await app.auth.confirmIdentity(ctx, request.body ?? {});
      const removed = await app.mfa.remove(ctx.actor.user, request.params.uuid);
      if (!removed) throw notFound();
      await app.audit.record(ctx, { action: 'mfa_remove', outcome: 'success', detail: { device_type: removed.device_type, confirmed: removed.confirmed } });
      if (removed.confirmed) {
        app.auth.notify(ctx.actor.user, ctx, 'mfaRemoved', { device: removed.device_type });
        // A link to another account lives only as long as the second factor that made it.
        await endLinksOf({ db: app.db, audit: app.audit, mail: app.backgroundMail }, ctx, { userId: ctx.actor.userId, orgId: ctx.actor.orgId }, 'mfa_removed');
      }
      return reply.code(204).send(null);
    },
  );
};
