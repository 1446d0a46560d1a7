import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { z } from 'zod';
import {
  CopyRecordsBodySchema,
  CopyRecordsResultSchema,
  CreateLinkBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  LinkedAccountListSchema,
  LinkedAccountSchema,
  LinkedSignInBodySchema,
  LinkParamsSchema,
  LoginAnswerSchema,
  SwitchTokenSchema,
} from '@healthbook/shared';
import { COOKIE_NOTE, setRefreshCookies } from '../auth/auth.routes';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema, 429: DetailErrorSchema };
const tags = ['connection-hub'];
const security = [{ bearerAuth: [] }];
/** The connection hub's API is its feature's: off for the organisation, 403. */
const config = { feature: 'connection-hub' };

/**
 * The browser's device cookie: which linked accounts' second factors were passed on this
 * browser (stored hashed on the server), sent only to the two calls that read it.
 */
export const DEVICE_COOKIE = 'hb_device';
const DEVICE_COOKIE_PATHS = ['/api/v1/connection-hub/links/', '/api/v1/auth/linked/'] as const;
const DEVICE_TTL_S = 400 * 24 * 60 * 60;

function deviceOf(request: FastifyRequest): string | null {
  const value = parseCookies(request.headers.cookie ?? '')[DEVICE_COOKIE];
  return value && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}

function setDeviceCookie(reply: FastifyReply, value: string) {
  const cookies = DEVICE_COOKIE_PATHS.map((path) => serializeCookie(DEVICE_COOKIE, value, { httpOnly: true, secure: true, sameSite: 'strict', path, maxAge: DEVICE_TTL_S }));
  const existing = reply.getHeader('set-cookie');
  reply.header('set-cookie', [...(existing === undefined ? [] : [existing].flat().map(String)), ...cookies]);
}

/** Linked accounts of the signed-in user (authenticated context). */
export const connectionHubRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  app.get(
    '/api/v1/connection-hub/links/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Your linked accounts in other organisations',
        description: 'Each: the link id, the other account’s organisation (client id, name, logo), its name and e-mail, when it was linked. Oldest first.',
        response: { 200: LinkedAccountListSchema, ...errors },
      },
    },
    async (request) => app.connectionHub.list(request.signedIn()),
  );

  app.post(
    '/api/v1/connection-hub/links/',
    {
      config: { ...config, rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'Link an account of another organisation by signing in to it',
        description:
          'Signs in to the other account without opening a session: `client_id` its organisation, its e-mail and password, and `code` when it has a second factor. ' +
          'The same organisation as yours: 400. Wrong e-mail or password, or no such account: the sign-in’s 401 "Incorrect authentication credentials." (throttled as sign-in is: five failures in 15 minutes, 429). ' +
          'Second factor on and no code: 400 under `code` asking for it (an e-mailed code is sent when that is its method); a wrong code: 400 under `code` (five, then 429). ' +
          'Already linked: 409. Audited in both organisations. This browser is remembered (an HttpOnly hb_device cookie) as having passed both accounts’ second factors.',
        body: CreateLinkBodySchema,
        response: { 201: LinkedAccountSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { link, newDevice } = await app.connectionHub.link(request.signedIn(), request.body, deviceOf(request));
      if (newDevice) setDeviceCookie(reply, newDevice);
      return reply.code(201).send(link);
    },
  );

  app.post(
    '/api/v1/connection-hub/links/:id/switch/',
    {
      config: { ...config, rateLimit: { max: opts.perIpLimit * 3, timeWindow: '1 minute' } },
      schema: {
        tags,
        security,
        summary: 'A single-use token to switch to the linked account',
        description: 'Valid 60 seconds, once, at POST /api/v1/auth/linked/. Another account’s link, or none: 404.',
        params: LinkParamsSchema,
        response: { 200: SwitchTokenSchema, ...errors },
      },
    },
    async (request) => app.connectionHub.switchToken(request.signedIn(), request.params.id),
  );

  app.post(
    '/api/v1/connection-hub/links/:id/copy/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Copy records between the two linked accounts',
        description:
          'Through the FHIR export of the account copied from and the import into the other (each acting on its own record): `categories`, or `records` (ids in the account copied from); `direction` from-here (default) or to-here. ' +
          'Private ("for my eyes only") records never leave; records copied before are not added again. Answers how many were copied, already there (duplicates) and skipped. Audited in both organisations.',
        params: LinkParamsSchema,
        body: CopyRecordsBodySchema,
        response: { 200: CopyRecordsResultSchema, ...errors },
      },
    },
    async (request) => app.connectionHub.copy(request.signedIn(), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/connection-hub/links/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Unlink: at once, for both accounts',
        description: 'Pending switch tokens stop working. Another account’s link, or none: 404.',
        params: LinkParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.connectionHub.unlink(request.signedIn(), request.params.id);
      return reply.code(204).send(null);
    },
  );
};

/** The switch's second half: a token for a session (public context, as sign-in). */
export const connectionHubPublicRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  app.post(
    '/api/v1/auth/linked/',
    {
      config: { rateLimit: { max: opts.perIpLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['auth', ...tags],
        summary: 'Sign in to a linked account with a switch token',
        description:
          'The token of POST /api/v1/connection-hub/links/{id}/switch/, once, within 60 seconds. Answers as sign-in does: full, or limited when the account has a second factor not yet passed on this browser (then POST /api/v1/verify/ as after sign-in). ' +
          'The session the token was asked from ends. A used, expired or unknown token: 401, audited. ' +
          COOKIE_NOTE,
        body: LinkedSignInBodySchema,
        response: { 200: LoginAnswerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { access_level, newDevice, ...answer } = await app.connectionHub.signInLinked(request.ctx, request.body.token, deviceOf(request), request.headers['user-agent']);
      // A limited pair only reaches /verify/: no cookie until the sign-in is complete (as at sign-in).
      if (access_level === 'full') setRefreshCookies(reply, answer.refresh);
      if (newDevice) setDeviceCookie(reply, newDevice);
      return answer;
    },
  );
};
