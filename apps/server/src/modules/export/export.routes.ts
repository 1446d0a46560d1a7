import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DetailErrorSchema, ExportBodySchema, ExportFileParamsSchema, ExportLinkSchema, FieldErrorsSchema } from '@healthbook/shared';

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
          'The chosen categories (`types`; optionally only `record_ids`, records dated from `date_from` to `date_to`, and private records with `include_private`, for their owner only: anyone else gets the record without them) as a PDF in `language` (default: Accept-Language), "made at" written in `time_zone`. Answers a link, GET it with your Authorization header within 15 minutes; for anyone else, or later, it is 404. Acts on `patient` (default: your own); a patient you may not open is 404.',
        body: ExportBodySchema,
        response: { 201: ExportLinkSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.exports.create(request.signedIn(), request.body)),
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
