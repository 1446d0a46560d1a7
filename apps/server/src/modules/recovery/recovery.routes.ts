import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CodeRetrievalBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  ForgotPasswordBodySchema,
  MessageAnswerSchema,
  ResetPasswordConfirmBodySchema,
} from '@healthbook/shared';
import { InvitationsService } from '../invitations/invitations.service';
import { BackgroundMail } from './background-mail';
import { RecoveryService } from './recovery.service';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 429: DetailErrorSchema };

/** Password and access-code assistance, without signing in. */
const recoveryRoutes: FastifyPluginAsyncZod<{ publicUrl: string; perIpLimit: number }> = async (app, opts) => {
  const background = new BackgroundMail(app.mailer, app.log);
  app.addHook('onClose', () => background.drain());
  const service = new RecoveryService({ db: app.db, users: app.users, audit: app.audit, publicUrl: opts.publicUrl, background });
  const invitations = new InvitationsService({ db: app.db, mailer: app.mailer, audit: app.audit, publicUrl: opts.publicUrl, background });
  /** Per-IP limits: perIpLimit a minute (AUTH_RATE_LIMIT). */
  const perIp = { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } };

  app.post(
    '/api/v1/reset_password/',
    {
      config: perIp,
      schema: {
        tags: ['recovery'],
        summary: 'E-mail a password reset link',
        description:
          'Always 200 with the same message, whether or not the address has an account in the organisation (or the organisation exists). The link is valid for 60 minutes, works once, and replaces earlier links.',
        body: ForgotPasswordBodySchema,
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await service.requestReset(request, request.body);
      return { detail: request.t('errors:resetSent') };
    },
  );

  app.post(
    '/api/v1/reset_password/confirm/',
    {
      config: perIp,
      schema: {
        tags: ['recovery'],
        summary: "Set a new password with the reset link's uid and token",
        description:
          'Ends every session of the account; second factors stay as they are. An unknown, expired or used link answers 400 {detail}; a weak password 400 {password}.',
        body: ResetPasswordConfirmBodySchema,
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await service.confirmReset(request, request.body);
      return { detail: request.t('errors:passwordReset') };
    },
  );

  app.post(
    '/api/v1/users/coderetrieval/',
    {
      config: perIp,
      schema: {
        tags: ['recovery'],
        summary: 'Send a new access code to the invited address',
        description:
          'When a pending invitation of the organisation matches the names (case-insensitive) and the date of birth, it gets a new code (the previous one stops working) valid for 30 more days, e-mailed to the invited address. Always 200 with the same message.',
        body: CodeRetrievalBodySchema,
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await invitations.retrieveCode(request, request.body);
      return { detail: request.t('errors:codeRetrievalSubmitted') };
    },
  );
};

export default recoveryRoutes;
