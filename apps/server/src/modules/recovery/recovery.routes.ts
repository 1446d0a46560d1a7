import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccountSetupAnswerSchema,
  AccountSetupBodySchema,
  AccountSetupCheckAnswerSchema,
  AccountSetupGoneSchema,
  AccountSetupLinkSchema,
  CodeRetrievalBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  ForgotPasswordBodySchema,
  MessageAnswerSchema,
  ResetPasswordConfirmBodySchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 403: DetailErrorSchema, 429: DetailErrorSchema };

/** Password and access-code assistance, without signing in. */
export const recoveryRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {  /** Per-IP limits: perIpLimit a minute (AUTH_RATE_LIMIT). */
  const perIp = { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } };

  app.post(
    '/api/v1/reset_password/',
    {
      config: { ...perIp, organizationFrom: 'org_id' },
      schema: {
        tags: ['recovery'],
        summary: 'E-mail a password reset link',
        description:
          'Always 200 with the same message, whether or not the address has an account in the organisation (or the organisation exists). The link is valid for 60 minutes, works once, and replaces earlier links. At most three mails per address an hour. While the organisation is deactivated: 403 {detail, code: organization_deactivated} (its status is public; nothing about the address is told).',
        body: ForgotPasswordBodySchema,
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await app.recovery.requestReset(request.ctx, request.body);
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
          'Ends every session of the account, and its links with accounts of other organisations (Connection Hub; both accounts are told); second factors stay as they are. An unknown, expired or used link answers 400 {detail}; a weak password 400 {password}.',
        body: ResetPasswordConfirmBodySchema,
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await app.recovery.confirmReset(request.ctx, request.body);
      return { detail: request.t('errors:passwordReset') };
    },
  );

  app.post(
    '/api/v1/users/coderetrieval/',
    {
      config: { ...perIp, organizationFrom: 'org_id' },
      schema: {
        tags: ['recovery'],
        summary: 'Send a new access code to the invited address',
        description:
          'When a pending invitation of the organisation matches the names (case-insensitive) and the date of birth, it gets a new code (the previous one stops working) valid for 30 more days, e-mailed to the invited address. At most three mails per person an hour. Always 200 with the same message, except while the organisation is deactivated: 403 {detail, code: organization_deactivated}.',
        body: CodeRetrievalBodySchema,
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await app.invitations.retrieveCode(request.ctx, request.body);
      return { detail: request.t('errors:codeRetrievalSubmitted') };
    },
  );
};


/** The set-password link of an account made without a password (modules/recovery/account-setup.ts). */
export const accountSetupRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  const perIp = { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } };
  const linkErrors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 403: DetailErrorSchema, 410: AccountSetupGoneSchema, 429: DetailErrorSchema };

  app.post(
    '/api/v1/account_setup/check/',
    {
      config: perIp,
      schema: {
        tags: ['recovery'],
        summary: 'Whether a set-password link still works, and whose account it sets up',
        description:
          'The page asks before showing the form. A live link answers the account (e-mail, first name, organisation); an unknown one 400 {detail}; one that no longer works 410 {detail, reason: expired | used}. Changes nothing.',
        body: AccountSetupLinkSchema,
        response: { 200: AccountSetupCheckAnswerSchema, ...linkErrors },
      },
    },
    async (request) => app.accountSetup.check(request.body),
  );

  app.post(
    '/api/v1/account_setup/',
    {
      config: perIp,
      schema: {
        tags: ['recovery'],
        summary: "Set the first password of an account with its set-password link's uid and token",
        description:
          'The link (e-mailed when an operator or administrator made the account) is valid for 24 hours and works once: of simultaneous uses one sets the password, the others get 410 used. The password follows the sign-up rule (400 {password} otherwise, nothing changed). The e-mail address counts as confirmed. Then sign in.',
        body: AccountSetupBodySchema,
        response: { 200: AccountSetupAnswerSchema, ...linkErrors },
      },
    },
    async (request) => ({ detail: request.t('errors:passwordSet'), ...(await app.accountSetup.complete(request.ctx, request.body)) }),
  );
};
