import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendSerialized } from '../../lib/serializer';
import { z } from 'zod';
import {
  CATEGORIES,
  DetailErrorSchema,
  FieldErrorsSchema,
  PatientQuerySchema,
  RecordHistorySchema,
  RecordIdParamsSchema,
  RecordListQuerySchema,
  RecordOptionsSchema,
  RecordSummarySchema,
  recordAnswerSchema,
  recordBodySchema,
  recordPageSchema,
  type CategoryDefinition,
} from '@healthbook/shared';
import { recordOptions } from './records.options';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const tags = ['health records'];
const security = [{ bearerAuth: [] }];
/** The API of health records is the health-records feature's: off for an organisation, it answers 403. */
const config = { feature: 'health-records' };
const WHOSE = 'Acts on `?patient=` (default: your own); a patient you may not open, or a record not there (or of another category), is 404 alike.';

/** The address of another page of a list, or null (Django REST's next / previous). */
function pageLink(base: string, url: string, page: number | null): string | null {
  if (page === null) return null;
  const u = new URL(url, base);
  if (page === 1) u.searchParams.delete('page');
  else u.searchParams.set('page', String(page));
  return `${base}${u.pathname}${u.search}`;
}

/**
 * The routes of one category, from its declaration (the spec's generic resource client):
 * list, create, options, read, replace, change, delete, history.
 */
function categoryRoutes(category: CategoryDefinition, publicUrl: string): FastifyPluginAsyncZod {
  const name = category.key;
  const collection = `/api/v1/hr/${name}/`;
  const item = `/api/v1/hr/${name}/:id/`;
  const Answer = recordAnswerSchema(category);
  const Body = recordBodySchema(category) as z.ZodType<Record<string, unknown>>;

  return async (app) => {
    app.get(
      collection,
      {
        config,
        schema: {
          tags,
          security,
          summary: `List ${name} records`,
          description: `Paged (page, page_size up to 100), ordered (ordering: a field, "-" for descending), searched (search), and filtered by the record's date (date_from, date_to). Private records are listed to their owner only. ${WHOSE}`,
          querystring: RecordListQuerySchema,
          response: { 200: recordPageSchema(category), ...errors },
        },
      },
      async (request, reply) => {
        const { count, resultsJson, page, pageSize } = await app.records.list(request.signedIn(), category, request.query);
        const next = page * pageSize < count ? pageLink(publicUrl, request.url, page + 1) : null;
        const previous = page > 1 ? pageLink(publicUrl, request.url, Math.min(page - 1, Math.max(1, Math.ceil(count / pageSize)))) : null;
        // The records come serialised from the service (kept so per version of the patient's data).
        return sendSerialized(reply as FastifyReply, `{"count":${count},"next":${JSON.stringify(next)},"previous":${JSON.stringify(previous)},"results":${resultsJson}}`);
      },
    );

    app.post(
      collection,
      {
        config,
        schema: {
          tags,
          security,
          summary: `Add a ${name} record`,
          description: `Checked against the category's rules (ranges, dates not before birth nor in the future, end not before start); each message under its field. ${WHOSE}`,
          querystring: PatientQuerySchema,
          body: Body,
          response: { 201: Answer, ...errors },
        },
      },
      async (request, reply) => reply.code(201).send(await app.records.create(request.signedIn(), category, request.body, request.query.patient)),
    );

    app.route({
      method: 'OPTIONS',
      url: collection,
      config,
      schema: { tags, security, summary: `The fields of ${name} records, their rules and choices (labels in your language)`, response: { 200: RecordOptionsSchema, ...errors } },
      handler: async (request) => recordOptions(category, request.signedIn().lang),
    });

    app.get(
      item,
      {
        config,
        schema: { tags, security, summary: `One ${name} record`, description: WHOSE, params: RecordIdParamsSchema, querystring: PatientQuerySchema, response: { 200: Answer, ...errors } },
      },
      async (request) => app.records.get(request.signedIn(), category, request.params.id, request.query.patient),
    );

    for (const method of ['PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: item,
        config,
        schema: {
          tags,
          security,
          summary: method === 'PUT' ? `Replace a ${name} record (fields not given are emptied)` : `Change some fields of a ${name} record`,
          description: `The previous version is kept (GET …/history/). ${WHOSE}`,
          params: RecordIdParamsSchema,
          querystring: PatientQuerySchema,
          body: Body,
          response: { 200: Answer, ...errors },
        },
        handler: async (request) => app.records.update(request.signedIn(), category, request.params.id, request.body, method === 'PATCH', request.query.patient),
      });
    }

    app.delete(
      item,
      {
        config,
        schema: {
          tags,
          security,
          summary: `Delete a ${name} record`,
          description: `Its attachments go with it; documents of the Document Center attached to it stay there. ${WHOSE}`,
          params: RecordIdParamsSchema,
          querystring: PatientQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await app.records.remove(request.signedIn(), category, request.params.id, request.query.patient);
        return reply.code(204).send(null);
      },
    );

    app.get(
      `${item}history/`,
      {
        config,
        schema: {
          tags,
          security,
          summary: `The versions of a ${name} record, newest first: who changed what, and when`,
          description: WHOSE,
          params: RecordIdParamsSchema,
          querystring: PatientQuerySchema,
          response: { 200: RecordHistorySchema, ...errors },
        },
      },
      async (request) => app.records.history(request.signedIn(), category, request.params.id, request.query.patient),
    );
  };
}

/** Health records (authenticated context): every category's routes, and the summary across them. */
export const recordsRoutes: FastifyPluginAsyncZod<{ publicUrl: string }> = async (app, opts) => {
  app.get(
    '/api/v1/hr/summary/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'How many records of each category, the latest date of each, and the records changed last',
        description: WHOSE,
        querystring: PatientQuerySchema,
        response: { 200: RecordSummarySchema, ...errors },
      },
    },
    async (request) => app.records.summary(request.signedIn(), request.query.patient),
  );
  for (const category of CATEGORIES) await app.register(categoryRoutes(category as CategoryDefinition, opts.publicUrl.replace(/\/$/, '')));
};
