import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../lib/file-reply';
import {
  CreateShareBodySchema,
  CreatedShareSchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  PatientQuerySchema,
  SHARE_SESSION_HEADER,
  SHARES_PER_DAY_MAX,
  SHARES_PER_HOUR_MAX,
  ShareAccessListSchema,
  ShareCodeSentSchema,
  ShareGoneSchema,
  ShareIdParamsSchema,
  ShareLinkBodySchema,
  ShareListSchema,
  ShareOpeningSchema,
  ShareSchema,
  ShareSessionSchema,
  ShlManifestBodySchema,
  ShlManifestSchema,
  ShlPasscodeWrongSchema,
  SharedContentSchema,
  SharedFileParamsSchema,
  SharedPdfQuerySchema,
  VerifyShareBodySchema,
} from '@healthbook/shared';

/** The allowance shared by creating a share and giving one a new address. */
const LIMIT = `A patient may create (or re-address) ${SHARES_PER_HOUR_MAX} shares an hour and ${SHARES_PER_DAY_MAX} a day, whoever acts for them; beyond that 429 with Retry-After (seconds).`;
const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const tags = ['sharing'];
const security = [{ bearerAuth: [] }];
/** The patient's side is the share-record feature's: off for an organisation, it answers 403. */
const config = { feature: 'share-record' };
const WHOSE = 'Acts on `?patient=` (default: your own); a share that is not yours is 404.';

/** The patient's shares: create, list, one, its openings, revoke, a new address. */
export const sharingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/sharing/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Share records or documents',
        description: `kind records: whole categories (every non-private record in them, as they are when opened) and/or single records; kind documents: Document Center documents. Private records, and documents attached to them, cannot be chosen and are never shown. method link: the address is e-mailed to the recipient, who then gets a six-digit code by e-mail; method qr: show the address as a QR code with the passcode. The address (and passcode) are answered once: only hashes are kept. ${LIMIT} ${WHOSE}`,
        querystring: PatientQuerySchema,
        body: CreateShareBodySchema,
        response: { 201: CreatedShareSchema, ...errors, 429: DetailErrorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await app.sharing.create(request.signedIn(), request.body, request.query.patient)),
  );
  app.get(
    '/api/v1/sharing/',
    { config, schema: { tags, security, summary: 'Your shares, newest first (active, expired, revoked, locked)', querystring: PatientQuerySchema, response: { 200: ShareListSchema, ...errors } } },
    async (request) => app.sharing.list(request.signedIn(), request.query.patient),
  );
  app.get(
    '/api/v1/sharing/:id/',
    { config, schema: { tags, security, summary: 'One share', params: ShareIdParamsSchema, querystring: PatientQuerySchema, response: { 200: ShareSchema, ...errors } } },
    async (request) => app.sharing.get(request.signedIn(), request.params.id, request.query.patient),
  );
  app.get(
    '/api/v1/sharing/:id/accesses/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Who saw my record: every opening of a share, newest first',
        description: 'verified: the right code or passcode; viewed: the content shown (with what was shown); pdf: the PDF downloaded; document: a file opened.',
        params: ShareIdParamsSchema,
        querystring: PatientQuerySchema,
        response: { 200: ShareAccessListSchema, ...errors },
      },
    },
    async (request) => app.sharing.accesses(request.signedIn(), request.params.id, request.query.patient),
  );
  app.post(
    '/api/v1/sharing/:id/revoke/',
    { config, schema: { tags, security, summary: 'Revoke a share (at once, also for a recipient who has it open)', params: ShareIdParamsSchema, querystring: PatientQuerySchema, response: { 200: ShareSchema, ...errors } } },
    async (request) => app.sharing.revoke(request.signedIn(), request.params.id, request.query.patient),
  );
  app.post(
    '/api/v1/sharing/:id/reissue/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'A new address (and passcode) for a live share',
        description: 'The old address stops working, open sessions end and the wrong-code count starts again (this opens a locked share). Link shares: the new address is e-mailed to the recipient. A revoked or expired share: 400. ' + LIMIT,
        params: ShareIdParamsSchema,
        querystring: PatientQuerySchema,
        response: { 200: CreatedShareSchema, ...errors, 429: DetailErrorSchema },
      },
    },
    async (request) => app.sharing.reissue(request.signedIn(), request.params.id, request.query.patient),
  );
};

const publicErrors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 404: DetailErrorSchema, 410: ShareGoneSchema, 429: DetailErrorSchema };
const publicTags = ['sharing (recipient)'];
const sessionHeader = z.object({ [SHARE_SESSION_HEADER]: z.string().max(200).optional() });
const SESSION = `Needs the session of /verify/ in the ${SHARE_SESSION_HEADER} header: 401 without a live one; 410 when the share was revoked or expired since.`;

/** The recipient's side (public: the address and the code are the proof), rate limited per client address. */
export const sharingPublicRoutes: FastifyPluginAsyncZod<{ perIpLimit: number }> = async (app, opts) => {
  const rateLimit = { max: opts.perIpLimit, timeWindow: '1 minute' };
  const userAgent = (value: string | undefined) => (value ? value.slice(0, 300) : null);
  const GONE = 'An unknown or malformed address: 404, the same whether it ever existed or not. A share that is over: 410 with reason expired, revoked or locked (five wrong codes).';

  app.post(
    '/api/v1/sharing/public/open/',
    { config: { rateLimit }, schema: { tags: publicTags, summary: 'Open a shared address: what the verification page shows', description: GONE, body: ShareLinkBodySchema, response: { 200: ShareOpeningSchema, ...publicErrors } } },
    async (request) => app.sharing.open(request.body),
  );
  app.post(
    '/api/v1/sharing/public/code/',
    {
      config: { rateLimit },
      schema: { tags: publicTags, summary: 'E-mail a six-digit code to the recipient (link shares)', description: `Valid 10 minutes; a new code replaces the last one; 3 per quarter hour per share (then 429). ${GONE}`, body: ShareLinkBodySchema, response: { 200: ShareCodeSentSchema, ...publicErrors } },
    },
    async (request) => app.sharing.sendCode(request.body),
  );
  app.post(
    '/api/v1/sharing/public/verify/',
    {
      config: { rateLimit },
      schema: {
        tags: publicTags,
        summary: 'The e-mailed code (link) or the passcode (QR): a session for this browser',
        description: `Five wrong codes over the share's life lock it (410 locked). ${GONE}`,
        body: VerifyShareBodySchema,
        response: { 200: ShareSessionSchema, ...publicErrors },
      },
    },
    async (request) => app.sharing.verify(request.ctx, request.body, userAgent(request.headers['user-agent'])),
  );
  app.get(
    '/api/v1/sharing/public/content/',
    { config: { rateLimit }, schema: { tags: publicTags, summary: 'The shared records or documents, as they are now (read-only)', description: SESSION, headers: sessionHeader, response: { 200: SharedContentSchema, ...publicErrors } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return app.sharing.content(request.ctx, request.headers[SHARE_SESSION_HEADER], userAgent(request.headers['user-agent']));
    },
  );
  app.get(
    '/api/v1/sharing/public/pdf/',
    {
      config: { rateLimit },
      schema: {
        tags: publicTags,
        summary: 'The shared records as a PDF',
        description: `${SESSION} Times are written in \`time_zone\` (the reader's, e.g. their browser's), else in the patient's, with the zone named.`,
        headers: sessionHeader,
        querystring: SharedPdfQuerySchema,
        response: { 200: z.any().describe('application/pdf'), ...publicErrors },
      },
    },
    async (request, reply) => {
      const pdf = await app.sharing.pdf(request.ctx, request.headers[SHARE_SESSION_HEADER], userAgent(request.headers['user-agent']), request.query.time_zone);
      return reply.type('application/pdf').header('Cache-Control', 'no-store').header('Content-Disposition', 'attachment; filename="health-record.pdf"').send(pdf);
    },
  );
  app.get(
    '/api/v1/sharing/public/files/:id/',
    {
      config: { rateLimit },
      schema: { tags: publicTags, summary: 'A shared document, or an attachment of a shared record', description: SESSION, headers: sessionHeader, params: SharedFileParamsSchema, response: { 200: z.any(), ...publicErrors } },
    },
    async (request, reply) => {
      const file = await app.sharing.file(request.ctx, request.headers[SHARE_SESSION_HEADER], request.params.id, userAgent(request.headers['user-agent']));
      return sendStoredFile(reply, { data: file.data, fileName: file.file_name, contentType: file.content_type });
    },
  );

  // SMART Health Links: viewers on any origin fetch the manifest (no cookies; the address and passcode are the proof).
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'POST, OPTIONS', 'Access-Control-Allow-Headers': 'Content-Type', 'Access-Control-Max-Age': '600' };
  app.options('/api/v1/shl/:uid/:token', { config: { rateLimit }, schema: { hide: true } }, async (_request, reply) => reply.headers(cors).code(204).send());
  app.post(
    '/api/v1/shl/:uid/:token',
    {
      config: { rateLimit },
      schema: {
        tags: publicTags,
        summary: 'SMART Health Link manifest (a QR share of records)',
        description: 'The SHL manifest request: {recipient, passcode}. A wrong passcode: 401 with remainingAttempts (the share’s five tries); anything not live (unknown, expired, revoked, locked): 404. The file is the shared records as a FHIR R4 Bundle, embedded as a JWE (alg dir, enc A256GCM) under the key of the shlink:/ payload.',
        params: z.object({ uid: ShareLinkBodySchema.shape.uid, token: ShareLinkBodySchema.shape.token }),
        body: ShlManifestBodySchema,
        response: { 200: ShlManifestSchema, 401: ShlPasscodeWrongSchema, 400: FieldErrorsSchema.or(DetailErrorSchema), 404: DetailErrorSchema, 429: DetailErrorSchema },
      },
      onSend: async (_request, reply, payload) => {
        reply.headers(cors).header('Cache-Control', 'no-store');
        return payload;
      },
    },
    async (request) => app.sharing.shlManifest(request.ctx, request.params, request.body),
  );
};
