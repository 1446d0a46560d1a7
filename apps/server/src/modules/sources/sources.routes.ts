import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ConnectSourceAnswerSchema,
  ConnectSourceBodySchema,
  CreateFhirSourceBodySchema,
  DetailErrorSchema,
  DisconnectSourceQuerySchema,
  FhirSourceListSchema,
  FhirSourceSchema,
  FieldErrorsSchema,
  PatientQuerySchema,
  PatientSourcesSchema,
  SourceCallbackBodySchema,
  SourceCheckBodySchema,
  SourceCheckResultSchema,
  SourceConnectionSchema,
  SourceIdParamsSchema,
  SyncNowQuerySchema,
  UpdateFhirSourceBodySchema,
} from '@healthbook/shared';
import { OrgQuerySchema } from '@healthbook/shared';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };
const security = [{ bearerAuth: [] }];
const admin = { tags: ['sources'], security };
const patientTags = { tags: ['sources'], security };
const ADMINS = 'For organisation admins (their organisation) and super admins (any); another organisation’s source: 404. Audited.';
const WHOSE = 'Acts on `?patient=` (default: your own): the patient and those with full access to their whole record; a patient you may not open is 404, a read-only or limited grant 403.';
/** Connected sources bring records into the health records: the health-records feature's (off: 403). */
const config = { feature: 'health-records' };

/** Sources of records (SMART on FHIR): the organisation's catalogue, and a patient's connections. */
export const sourcesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/admin/sources/',
    { schema: { ...admin, summary: 'The organisation’s SMART on FHIR sources', description: ADMINS, querystring: OrgQuerySchema, response: { 200: FhirSourceListSchema, ...errors } } },
    async (request) => app.sources.list(request.signedIn(), request.query.org_id),
  );

  app.post(
    '/api/v1/admin/sources/check/',
    {
      schema: {
        ...admin,
        summary: 'Check a FHIR base: reachable, its SMART configuration, endpoints, PKCE S256, scopes (nothing kept)',
        description: `${ADMINS} In production only https addresses on public networks are asked.`,
        body: SourceCheckBodySchema,
        response: { 200: SourceCheckResultSchema, ...errors },
      },
    },
    async (request) => app.sources.check(request.signedIn(), request.body.fhir_base_url, request.body.scopes),
  );

  app.post(
    '/api/v1/admin/sources/',
    {
      schema: {
        ...admin,
        summary: 'Add a source: checked first (400 on the field that failed, saying why)',
        description: `${ADMINS} The client secret of a confidential client is kept encrypted and never answered back.`,
        body: CreateFhirSourceBodySchema,
        response: { 201: FhirSourceSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.sources.create(request.signedIn(), request.body)),
  );

  app.patch(
    '/api/v1/admin/sources/:id/',
    {
      schema: {
        ...admin,
        summary: 'Change a source (a new address or scopes are checked again); disable or enable it',
        description: ADMINS,
        params: SourceIdParamsSchema,
        body: UpdateFhirSourceBodySchema,
        response: { 200: FhirSourceSchema, ...errors },
      },
    },
    async (request) => app.sources.update(request.signedIn(), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/admin/sources/:id/',
    {
      schema: {
        ...admin,
        summary: 'Remove a source: patients’ connections to it end; the records it brought stay',
        description: ADMINS,
        params: SourceIdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.sources.remove(request.signedIn(), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/sources/',
    {
      config,
      schema: {
        ...patientTags,
        summary: 'The providers a patient may connect, and their connections (status, last sync, records brought)',
        description: WHOSE,
        querystring: PatientQuerySchema,
        response: { 200: PatientSourcesSchema, ...errors },
      },
    },
    async (request) => app.sources.patientSources(request.signedIn(), request.query.patient),
  );

  app.post(
    '/api/v1/sources/connect/',
    {
      config,
      schema: {
        ...patientTags,
        summary: 'Begin connecting a provider: the address of its authorisation page (PKCE S256, state, aud)',
        description: `${WHOSE} The browser goes there; the source sends it back to the web app’s callback page, which posts to /api/v1/sources/callback/.`,
        body: ConnectSourceBodySchema,
        response: { 200: ConnectSourceAnswerSchema, ...errors },
      },
    },
    async (request) => app.sources.connect(request.signedIn(), request.body.source_id, request.body.patient),
  );

  app.post(
    '/api/v1/sources/callback/',
    {
      config,
      schema: {
        ...patientTags,
        summary: 'Finish connecting: the callback’s parameters, by the user who began (the state is single-use, 10 minutes)',
        description:
          'A 400 names its `code`: denied (the patient did not allow it), state (unknown, used, expired or another user’s), expired_code (the source no longer takes the code), source_down (it could not be reached), no_patient (the token named no patient). Nothing is kept unless every step held; then a first sync begins.',
        body: SourceCallbackBodySchema,
        response: { 200: SourceConnectionSchema, ...errors },
      },
    },
    async (request) => app.sources.callback(request.signedIn(), request.body),
  );

  app.post(
    '/api/v1/sources/connections/:id/sync/',
    {
      config,
      schema: {
        ...patientTags,
        summary: 'Sync now: a full sync (it also finds what the source deleted), or with full=false only what changed',
        description: `${WHOSE} 409 when the connection needs reconnecting.`,
        params: SourceIdParamsSchema,
        querystring: PatientQuerySchema.extend(SyncNowQuerySchema.shape),
        response: { 200: SourceConnectionSchema, ...errors },
      },
    },
    async (request) => app.sources.syncNow(request.signedIn(), request.params.id, request.query.full !== 'false', request.query.patient),
  );

  app.delete(
    '/api/v1/sources/connections/:id/',
    {
      config,
      schema: {
        ...patientTags,
        summary: 'Disconnect a provider: its tokens deleted; its records stay unless remove_records=true',
        description: WHOSE,
        params: SourceIdParamsSchema,
        querystring: PatientQuerySchema.extend(DisconnectSourceQuerySchema.shape),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.sources.disconnect(request.signedIn(), request.params.id, request.query.remove_records === 'true', request.query.patient);
      return reply.code(204).send(null);
    },
  );
};
