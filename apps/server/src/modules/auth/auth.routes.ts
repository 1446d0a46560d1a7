import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  LoginAnswerSchema,
  LoginBodySchema,
  RefreshBodySchema,
  TokenPairSchema,
  VerifyAnswerSchema,
  VerifyBodySchema,
} from '@healthbook/shared';
import { MfaService } from '../mfa/mfa.service';
import { AuthService } from './auth.service';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 429: DetailErrorSchema };

const authRoutes: FastifyPluginAsyncZod<{ jwtSecret: string; perIpLimit: number }> = async (app, opts) => {
  const mfa = new MfaService(app.db, app.mailer, opts.jwtSecret);
  const service = new AuthService({ db: app.db, tokens: app.tokens, users: app.users, audit: app.audit, mfa });
  /** Per-IP limits: `perIpLimit` a minute (AUTH_RATE_LIMIT, default 20), token calls three times that. */
  const perIp = (factor: number) => ({ rateLimit: { max: opts.perIpLimit * factor, timeWindow: '1 minute' } });

  app.post(
    '/api/v1/login/',
    {
      config: perIp(1),
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password within one organisation',
        description:
          'Answers an access token (claims carry access: full | limited), a refresh token and the user. Limited: a second factor is needed (POST /api/v1/verify/). Wrong credentials: 401 "Incorrect authentication credentials." (clients must not retry it).',
        body: LoginBodySchema,
        response: { 200: LoginAnswerSchema, ...errors },
      },
    },
    async (request) => service.login(request, request.body),
  );

  app.post(
    '/api/v1/refresh/',
    {
      config: perIp(3),
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh token',
        description: 'Answers a new access and refresh token. A rotated refresh token presented again ends that whole session.',
        body: RefreshBodySchema,
        response: { 200: TokenPairSchema, ...errors },
      },
    },
    async (request) => service.refresh(request, request.body.refresh),
  );

  app.post(
    '/api/v1/logout/',
    {
      config: perIp(3),
      schema: { tags: ['auth'], summary: 'End the session of this refresh token', body: RefreshBodySchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await service.logout(request, request.body.refresh);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/v1/verify/',
    {
      config: perIp(1),
      preHandler: app.requireAuth({ access: 'any' }),
      schema: {
        tags: ['auth', 'mfa'],
        summary: 'Check a second-factor code',
        description:
          'With a limited token (sign-in): answers the user with a new full access/refresh pair; the limited pair stops working. With a full token: confirms the device being enrolled and answers the user.',
        security: [{ bearerAuth: [] }],
        body: VerifyBodySchema,
        response: { 200: VerifyAnswerSchema, ...errors },
      },
    },
    async (request) => service.verify(request, request.body.code),
  );
};

export default authRoutes;
