import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ConfirmEmailBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  InvitationDetailsSchema,
  MessageAnswerSchema,
  RegisterBodySchema,
  UserOptionsSchema,
  ValidateCodeBodySchema,
} from '@healthbook/shared';
import { presentInvitationDetails } from '../invitations/invitations.presenter';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 403: DetailErrorSchema, 429: DetailErrorSchema };

/** Sign-up without signing in: options, access-code validation, registration, e-mail confirmation. */
export const signupRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {  /** Per-IP limits: perIpLimit a minute (AUTH_RATE_LIMIT). */
  const perIp = { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } };

  app.get(
    '/api/v1/users/options/',
    {
      schema: {
        tags: ['signup'],
        summary: 'The gender and sex choices, each {key, value} in the reader language',
        response: { 200: UserOptionsSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300').header('Vary', 'Accept-Language');
      return app.signup.options(request.lang);
    },
  );

  app.post(
    '/api/v1/users/validate/',
    {
      config: { ...perIp, organizationFrom: 'org_id' },
      schema: {
        tags: ['signup'],
        summary: 'The invitation behind an access code',
        description:
          'Answers what the sign-up page is pre-filled with (user_id is null until the account exists). An unknown, used, expired or other organisation\'s code: 400 {"signup_code": ["Access code is invalid"]}. Case, spaces and dashes in the code do not matter.',
        body: ValidateCodeBodySchema,
        response: { 200: InvitationDetailsSchema, ...errors },
      },
    },
    async (request) => presentInvitationDetails(await app.invitations.validate(request.ctx, request.body), request.lang, request.body.signup_code),
  );

  app.post(
    '/api/v1/users/register/',
    {
      config: { ...perIp, organizationFrom: 'org_id' },
      schema: {
        tags: ['signup'],
        summary: 'Create an account with an access code',
        description:
          'Names, date of birth and sex come from the invitation; when sent they must match it (400 per field otherwise). The account is created unconfirmed and a confirmation link is e-mailed; signing in before confirming answers 403. The code can be used once: of two concurrent registrations one gets 400 {signup_code}. Whether the address already has an account is not told: the answer is the same 201, nothing is created, the code stays usable, and the owner of the address gets a mail saying so.',
        body: RegisterBodySchema,
        response: { 201: MessageAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      await app.signup.register(request.ctx, request.body);
      return reply.code(201).send({ detail: request.t('errors:registered') });
    },
  );

  app.post(
    '/api/v1/users/confirm_email/',
    {
      config: perIp,
      schema: {
        tags: ['signup'],
        summary: "Confirm the e-mail address with the link's uid and token",
        description: 'Single use; an unknown, expired or used link answers 400 {detail}.',
        body: ConfirmEmailBodySchema,
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await app.signup.confirmEmail(request.ctx, request.body);
      return { detail: request.t('errors:emailConfirmed') };
    },
  );
};

