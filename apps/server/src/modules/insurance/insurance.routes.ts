import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateInsuranceCardBodySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  INSURANCE_PHOTO_MAX_BYTES,
  InsuranceCardListSchema,
  InsuranceCardParamsSchema,
  InsuranceCardSchema,
  InsurancePatientQuerySchema,
  InsurancePhotoParamsSchema,
  UpdateInsuranceCardBodySchema,
} from '@healthbook/shared';
import { sendStoredFile } from '../../lib/file-reply';
import { readUpload } from '../../lib/multipart';
import { INSURANCE_PHOTO_MAX_MEGABYTES } from './insurance.service';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const security = [{ bearerAuth: [] }];
const tags = ['insurance'];
const config = { feature: 'insurance' };
const WHOSE = 'Acts on `?patient=` (default: your own); anything not yours, or not there, is 404 alike.';
const PHOTO_RULES =
  'multipart/form-data with one file in the field "file": JPEG, PNG or WebP, decided by its content (never its name or declared type), at most 5 MB (checked while it streams). Image metadata (EXIF, GPS, XMP) is removed before it is stored.';

/** Photo uploads: multipart bodies are parsed only by the routes of this encapsulated plugin, within these limits. */
const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { fileSize: INSURANCE_PHOTO_MAX_BYTES, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 } });

  app.post(
    '/api/v1/insurance/:id/:side/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Upload or replace a card's front or back photo",
        description: `${PHOTO_RULES} The previous photo of that side, if any, is deleted. ${WHOSE}`,
        consumes: ['multipart/form-data'],
        params: InsurancePhotoParamsSchema,
        querystring: InsurancePatientQuerySchema,
        response: { 200: InsuranceCardSchema, 413: FieldErrorsSchema, ...errors },
      },
    },
    async (request) => {
      const { file } = await readUpload(request, { maxMegabytes: INSURANCE_PHOTO_MAX_MEGABYTES });
      return app.insurance.putPhoto(request.signedIn(), request.params.id, request.params.side, file, request.query.patient);
    },
  );
};

/** Insurance cards (authenticated context, feature `insurance`). */
export const insuranceRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(uploadRoutes);

  app.get(
    '/api/v1/insurance/',
    { config, schema: { tags, security, summary: 'The insurance cards', description: `Oldest first. ${WHOSE}`, querystring: InsurancePatientQuerySchema, response: { 200: InsuranceCardListSchema, ...errors } } },
    async (request) => app.insurance.list(request.signedIn(), request.query.patient),
  );

  app.post(
    '/api/v1/insurance/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Add an insurance card',
        description: `Insurer and member number are required; valid_to must not be before valid_from. Photos are added afterwards (POST …/{id}/front/ and …/back/). ${WHOSE}`,
        querystring: InsurancePatientQuerySchema,
        body: CreateInsuranceCardBodySchema,
        response: { 201: InsuranceCardSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await app.insurance.create(request.signedIn(), request.body, request.query.patient)),
  );

  app.get(
    '/api/v1/insurance/:id/',
    { config, schema: { tags, security, summary: 'One insurance card', description: WHOSE, params: InsuranceCardParamsSchema, querystring: InsurancePatientQuerySchema, response: { 200: InsuranceCardSchema, ...errors } } },
    async (request) => app.insurance.get(request.signedIn(), request.params.id, request.query.patient),
  );

  app.patch(
    '/api/v1/insurance/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Change an insurance card',
        description: `Only the fields given change (null clears an optional one). ${WHOSE}`,
        params: InsuranceCardParamsSchema,
        querystring: InsurancePatientQuerySchema,
        body: UpdateInsuranceCardBodySchema,
        response: { 200: InsuranceCardSchema, ...errors },
      },
    },
    async (request) => app.insurance.update(request.signedIn(), request.params.id, request.body, request.query.patient),
  );

  app.delete(
    '/api/v1/insurance/:id/',
    {
      config,
      schema: { tags, security, summary: 'Delete an insurance card and its photos', description: WHOSE, params: InsuranceCardParamsSchema, querystring: InsurancePatientQuerySchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await app.insurance.remove(request.signedIn(), request.params.id, request.query.patient);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/insurance/:id/:side/',
    {
      config,
      schema: {
        tags,
        security,
        summary: "A card's front or back photo",
        description: `Sent with its type, nosniff and a sandbox policy; inline. Reads by anyone but the owner are audited. ${WHOSE}`,
        params: InsurancePhotoParamsSchema,
        querystring: InsurancePatientQuerySchema,
        response: { 200: z.any().describe('the image'), ...errors },
      },
    },
    async (request, reply) => sendStoredFile(reply, await app.insurance.photo(request.signedIn(), request.params.id, request.params.side, request.query.patient), 'inline'),
  );

  app.delete(
    '/api/v1/insurance/:id/:side/',
    {
      config,
      schema: { tags, security, summary: "Remove a card's front or back photo", description: WHOSE, params: InsurancePhotoParamsSchema, querystring: InsurancePatientQuerySchema, response: { 200: InsuranceCardSchema, ...errors } },
    },
    async (request) => app.insurance.deletePhoto(request.signedIn(), request.params.id, request.params.side, request.query.patient),
  );
};
