import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, ExportBodySchema, ExportFileParamsSchema, ExportLinkSchema, ExportStatusSchema, FieldErrorsSchema } from '@healthbook/shared';

/** `Prefer: respond-async` (RFC 7240), among other preferences. */
const prefersAsync = (prefer: string | string[] | undefined) => [prefer ?? []].flat().join(',').split(',').some((p) => p.trim().toLowerCase().split(/\s*;/)[0] === 'respond-async');

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const tags = ['health records'];
const security = [{ bearerAuth: [] }];
/** Export is part of health records: off for an organisation, it answers 403. */
const config = { feature: 'health-records' };

/** PDF export (authenticated context): make the PDF, then fetch it by its short-lived link. */
export const exportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/v1/hr/export/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Export health records as a PDF',
        description:
          'The chosen categories (`types`; optionally only `record_ids`, records dated from `date_from` to `date_to`, and private records with `include_private`, for their owner only: anyone else gets the record without them) as a PDF in `language` (default: Accept-Language), "made at" written in `time_zone`. Answers a link, GET it with your Authorization header within 15 minutes; for anyone else, or later, it is 404. With `Prefer: respond-async` (RFC 7240) the answer comes at once: 202, the export\'s state (Location: its `status_url`, which tells how far the PDF is and, once done, its link). One PDF of a patient at a time: another asked meanwhile is 429 with Retry-After. Acts on `patient` (default: your own); a patient you may not open is 404.',
        body: ExportBodySchema,
        response: { 201: ExportLinkSchema, 202: ExportStatusSchema, 429: DetailErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { status, made } = await app.exports.start(request.signedIn(), request.body);
      if (prefersAsync(request.headers.prefer)) {
        return reply.code(202).header('Location', status.status_url).header('Preference-Applied', 'respond-async').send(status);
      }
      return reply.code(201).send(await made);
    },
  );

  app.get(
    '/api/v1/hr/export/:token/status/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'How far an export is',
        description: 'running (with its progress, 0 to 1), done (with the link of the PDF) or failed (with why, in your language). For the user who asked for it, while its link lives; anything else is 404.',
        params: ExportFileParamsSchema,
        response: { 200: ExportStatusSchema, ...errors },
      },
    },
    async (request, reply) => reply.header('Cache-Control', 'no-store').send(await app.exports.status(request.signedIn(), request.params.token)),
  );

  app.get(
    '/api/v1/hr/export/:token/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The PDF of an export',
        description: 'For the user who made it, within 15 minutes of making it; anything else is 404. Never cached; the file name says nothing of whose record it is.',
        params: ExportFileParamsSchema,
        response: { 200: z.any().describe('application/pdf'), ...errors },
      },
    },
    async (request, reply) => {
      const file = await app.exports.file(request.signedIn(), request.params.token);
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `inline; filename="${file.fileName}"`)
        .header('Content-Length', String(file.data.length))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .header('Cross-Origin-Resource-Policy', 'same-origin')
        .send(file.data);
    },
  );
};
