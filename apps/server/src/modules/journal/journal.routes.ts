import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DetailErrorSchema,
  FieldErrorsSchema,
  JournalEntryBodySchema,
  JournalEntryParamsSchema,
  JournalEntryPatchSchema,
  JournalEntrySchema,
  JournalListQuerySchema,
  JournalMoodsQuerySchema,
  JournalMoodsSchema,
  JournalPageSchema,
  JournalPatientQuerySchema,
} from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const tags = ['journal'];
const security = [{ bearerAuth: [] }];
/** The journal's API is the journal feature's: off for an organisation, it answers 403. */
const config = { feature: 'journal' };
const WHOSE =
  'Acts on `?patient=` (default: your own journal). Private entries (the default) are their owner’s alone: for anyone else they are not there (404, as a patient you may not open). Reads by anyone but the owner are audited.';

/** The journal (issue 13, item 4): dated entries with a title, text, a mood (1-5) and tags. */
export const journalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/journal/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Journal entries, newest first',
        description: `Paged (page, page_size up to 100), searched over title, text and tags (search), filtered by a tag (tag) and by the entry's day (date_from, date_to). ${WHOSE}`,
        querystring: JournalListQuerySchema,
        response: { 200: JournalPageSchema, ...errors },
      },
    },
    async (request) => app.journal.list(request.signedIn(), request.query),
  );

  app.post(
    '/api/v1/journal/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Write a journal entry',
        description: `Title required (≤200), text ≤20,000, mood 1-5 or null, ≤10 tags of ≤40 characters, a day neither in the future nor before the birth date; private unless \`private: false\`. Each message under its field; nothing is stored. ${WHOSE}`,
        querystring: JournalPatientQuerySchema,
        body: JournalEntryBodySchema,
        response: { 201: JournalEntrySchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.journal.create(request.signedIn(), request.body, request.query.patient)),
  );

  app.get(
    '/api/v1/journal/moods/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The mood of each entry over time (for the chart), oldest first',
        description: `Entries without a mood are left out. date_from, date_to: a range of days. ${WHOSE}`,
        querystring: JournalMoodsQuerySchema,
        response: { 200: JournalMoodsSchema, ...errors },
      },
    },
    async (request) => app.journal.moods(request.signedIn(), request.query),
  );

  app.get(
    '/api/v1/journal/:id/',
    {
      config,
      schema: { tags, security, summary: 'One journal entry', description: WHOSE, params: JournalEntryParamsSchema, querystring: JournalPatientQuerySchema, response: { 200: JournalEntrySchema, ...errors } },
    },
    async (request) => app.journal.get(request.signedIn(), request.params.id, request.query.patient),
  );

  app.put(
    '/api/v1/journal/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Replace a journal entry (fields not given take their defaults)',
        description: `Checked as when written. ${WHOSE}`,
        params: JournalEntryParamsSchema,
        querystring: JournalPatientQuerySchema,
        body: JournalEntryBodySchema,
        response: { 200: JournalEntrySchema, ...errors },
      },
    },
    async (request) => app.journal.update(request.signedIn(), request.params.id, request.body, request.query.patient),
  );

  app.patch(
    '/api/v1/journal/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Change some fields of a journal entry',
        description: `The fields not given are kept. ${WHOSE}`,
        params: JournalEntryParamsSchema,
        querystring: JournalPatientQuerySchema,
        body: JournalEntryPatchSchema,
        response: { 200: JournalEntrySchema, ...errors },
      },
    },
    async (request) => app.journal.update(request.signedIn(), request.params.id, request.body, request.query.patient),
  );

  app.delete(
    '/api/v1/journal/:id/',
    {
      config,
      schema: { tags, security, summary: 'Delete a journal entry', description: WHOSE, params: JournalEntryParamsSchema, querystring: JournalPatientQuerySchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await app.journal.remove(request.signedIn(), request.params.id, request.query.patient);
      return reply.code(204).send(null);
    },
  );
};
