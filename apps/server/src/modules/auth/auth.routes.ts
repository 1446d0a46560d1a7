import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { z } from 'zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  LoginAnswerSchema,
  LoginBodySchema,
  MessageAnswerSchema,
  REFRESH_TOKEN_TTL_S,
  RefreshBodySchema,
  TokenPairSchema,
  VerifyAnswerSchema,
  VerifyBodySchema,
} from '@healthbook/shared';
import { HttpError } from '../../lib/http-errors';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 429: DetailErrorSchema };

/**
 * The web app keeps its refresh token in an HttpOnly cookie, sent only to the two calls that
 * take it (JavaScript never sees it); API clients of the original contract use the JSON field.
 */
export const REFRESH_COOKIE = 'hb_refresh';
const REFRESH_COOKIE_PATHS = ['/api/v1/refresh/', '/api/v1/logout/'] as const;

export function setRefreshCookies(reply: FastifyReply, token: string | null) {
  reply.header(
    'set-cookie',
    REFRESH_COOKIE_PATHS.map((path) =>
      serializeCookie(REFRESH_COOKIE, token ?? '', { httpOnly: true, secure: true, sameSite: 'strict', path, maxAge: token ? REFRESH_TOKEN_TTL_S : 0 }),
    ),
  );
}

/** The refresh token of a call: the body's, else the cookie's; a 401 without either. */
function refreshTokenOf(request: FastifyRequest, body: { refresh?: string | undefined }): string {
  const token = body.refresh ?? parseCookies(request.headers.cookie ?? '')[REFRESH_COOKIE];
  if (!token) throw new HttpError(401, 'errors:notAuthenticated');
  return token;
}

export const COOKIE_NOTE =
  'The answer also sets the refresh token as an HttpOnly, Secure, SameSite=Strict cookie (hb_refresh) for the paths /api/v1/refresh/ and /api/v1/logout/.';

/** Sign-in, token renewal and sign-out: no token needed (public context). */
export const publicAuthRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
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
          'Answers an access token (claims carry access: full | limited), a refresh token and the user. Limited: a second factor is needed (POST /api/v1/verify/), and `user` carries only what the verification page needs (LimitedUser). ' +
          'Wrong credentials: 401 "Incorrect authentication credentials." (clients must not retry it). Five failures for one account in 15 minutes: 429 with Retry-After, whatever the address. ' +
          COOKIE_NOTE,
        body: LoginBodySchema,
        response: { 200: LoginAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { access_level, ...answer } = await app.auth.login(request.ctx, { ...request.body, userAgent: request.headers['user-agent'] });
      // A limited pair only reaches /verify/: no cookie until the sign-in is complete.
      if (access_level === 'full') setRefreshCookies(reply, answer.refresh);
      return answer;
    },
  );

  app.post(
    '/api/v1/refresh/',
    {
      config: perIp(3),
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh token',
        description:
          'The refresh token comes in the body ({"refresh": ...}) or, for the web app, in the hb_refresh cookie (send {}). Answers a new access and refresh token. A rotated refresh token presented again ends that whole session. ' +
          COOKIE_NOTE,
        body: RefreshBodySchema,
        response: { 200: TokenPairSchema, ...errors },
      },
    },
    async (request, reply) => {
      const pair = await app.auth.refresh(request.ctx, refreshTokenOf(request, request.body));
      setRefreshCookies(reply, pair.refresh);
      return pair;
    },
  );

  app.post(
    '/api/v1/logout/',
    {
      config: perIp(3),
      schema: {
        tags: ['auth'],
        summary: 'End the session of this refresh token',
        description: 'The refresh token in the body, or the hb_refresh cookie (send {}). Clears the cookie.',
        body: RefreshBodySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const token = refreshTokenOf(request, request.body);
      setRefreshCookies(reply, null);
      await app.auth.logout(request.ctx, token);
      return reply.code(204).send(null);
    },
  );
};

/** The second sign-in step and re-authentication codes (authenticated context). */
export const signedInAuthRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  app.post(
    '/api/v1/verify/',
    {
      config: { allowLimited: true, rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth', 'mfa'],
        summary: 'Check a second-factor code',
        description:
          'With a limited token (sign-in): answers the user with a new full access/refresh pair; the limited pair stops working; the fifth wrong code ends the pending sign-in (401). ' +
          'With a full token: confirms the device being enrolled and answers the user (five wrong codes in 15 minutes: 429). ' +
          COOKIE_NOTE,
        security: [{ bearerAuth: [] }],
        body: VerifyBodySchema,
        response: { 200: VerifyAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { upgraded, ...answer } = await app.auth.verify(request.signedIn(), request.body.code);
      if (upgraded && answer.refresh) setRefreshCookies(reply, answer.refresh);
      return answer;
    },
  );

  app.post(
    '/api/v1/me/reauth_code/',
    {
      config: { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth'],
        summary: 'E-mail a code to confirm it is you',
        description:
          'For users with an e-mail second factor: a six-digit code, valid for 5 minutes, that the `code` field of a re-authentication accepts (adding or removing a second factor, changing the e-mail address). Three per 15 minutes.',
        security: [{ bearerAuth: [] }],
        response: { 200: MessageAnswerSchema, ...errors },
      },
    },
    async (request) => {
      await app.auth.sendReauthCode(request.signedIn());
      return { detail: request.t('errors:reauthCodeSent') };
    },
  );
};
