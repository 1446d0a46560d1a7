import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APPLE_HEALTH_MAX_BYTES,
  AppleHealthClinicalSchema,
  AppleHealthImportSchema,
  AppleHealthMeasurementsBodySchema,
  AppleHealthQuerySchema,
  DetailErrorSchema,
  FieldErrorsSchema,
  IdParamSchema,
} from '@healthbook/shared';
import { saveUpload } from '../../../lib/multipart';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema, 409: DetailErrorSchema };
const tags = ['fhir'];
const security = [{ bearerAuth: [] }];
/** A way into the health records, as the FHIR import is. */
const config = { feature: 'health-records' };
const GB = 1024 ** 3;
const LIMIT_TEXT = `${APPLE_HEALTH_MAX_BYTES / GB} GB`;
const WHOSE = 'Acts on `?patient=` (default: your own); a patient you may not write into is 404.';
const ParamsSchema = z.object({ id: IdParamSchema });
const PatientQuerySchema = AppleHealthQuerySchema.pick({ patient: true });

/** Apple Health exports (issue 28 §4): uploaded, read in the background, then imported. */
export const appleHealthRoutes: FastifyPluginAsyncZod = async (app) => {
  // Multipart bodies only here: one file, streamed to disk within the limit.
  await app.register(multipart, { limits: { fileSize: APPLE_HEALTH_MAX_BYTES, files: 1, fields: 0, parts: 1, headerPairs: 50 } });

  app.post(
    '/api/v1/fhir/apple-health/',
    {
      config,
      // The file streams to disk; the body limit is the multipart plugin's, per file.
      bodyLimit: APPLE_HEALTH_MAX_BYTES + 1024 * 1024,
      schema: {
        tags,
        security,
        consumes: ['multipart/form-data'],
        summary: 'Upload an Apple Health export (export.zip) to import it',
        description: `multipart/form-data with the zip in the field "file" (the export.zip the Health app shares), at most ${LIMIT_TEXT}. Answers 202 at once: the import, reading; follow it with GET /api/v1/fhir/apple-health/{id}/ (progress in uncompressed bytes). Once ready: its clinical records (FHIR R4, or DSTU2 read as R4) through GET …/{id}/clinical/ and the FHIR import; its measurements (weight, height, heart rate, blood pressure, glucose, oxygen saturation, temperature) added as biometrics by POST …/{id}/measurements/. thin=day (the default) keeps the latest reading of each measurement on each day, counted in the patient's time zone (their account's, else time_zone, else UTC); thin=none every reading (at most 20,000 in all; more is a failed import that says to thin them). One import of a patient at a time: another under way is 409. Nothing is added to the record until asked. ${WHOSE}`,
        querystring: AppleHealthQuerySchema,
        response: { 202: AppleHealthImportSchema, ...errors, 413: FieldErrorsSchema },
      },
    },
    async (request, reply) => {
      const started = await app.appleHealth.open(request.signedIn(), request.query);
      const path = join(tmpdir(), `healthbook-apple-health-${randomBytes(12).toString('hex')}.zip`);
      const file = await saveUpload(request, path, { maxMegabytes: APPLE_HEALTH_MAX_BYTES / 1024 / 1024 });
      const answer = await app.appleHealth.start(started, file.filename, path);
      return (reply as FastifyReply).code(202).header('Location', `/api/v1/fhir/apple-health/${answer.id}/`).send(answer);
    },
  );

  app.get(
    '/api/v1/fhir/apple-health/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'An Apple Health import: how far it is, and what it found',
        description: `status reading (progress: uncompressed bytes read), ready (counts: per measurement, readings read, kept and refused with their first and last day; clinical records read and failed; problems), importing (progress: readings added), done (measurements: imported, duplicates, skipped, invalid), failed (error: its code and a message in the reader's language: not_zip, no_health_data, too_large, too_many, interrupted, import_failed, unreadable). A day after it was last touched, it is gone (404). ${WHOSE}`,
        params: ParamsSchema,
        querystring: PatientQuerySchema,
        response: { 200: AppleHealthImportSchema, ...errors },
      },
    },
    async (request) => app.appleHealth.get(request.signedIn(), request.params.id, request.query.patient),
  );

  app.get(
    '/api/v1/fhir/apple-health/:id/clinical/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The clinical records of an Apple Health import, as a FHIR R4 Bundle',
        description: `Once the export is read: its clinical-records (one resource per file, as the provider's patient-access API gave them; DSTU2 ones upgraded to R4) as a collection Bundle, to send to POST /api/v1/fhir/import/ for the preview, then the accept. Before: 409. ${WHOSE}`,
        params: ParamsSchema,
        querystring: PatientQuerySchema,
        response: { 200: AppleHealthClinicalSchema, ...errors },
      },
    },
    async (request, reply) => {
      const json = await app.appleHealth.clinical(request.signedIn(), request.params.id, request.query.patient);
      return (reply as FastifyReply).type('application/json; charset=utf-8').header('Cache-Control', 'no-store').send(json);
    },
  );

  app.post(
    '/api/v1/fhir/apple-health/:id/measurements/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Add the readings of the chosen measurements as biometrics',
        description: `Once the export is read (status ready): the readings kept of each measurement in \`measures\` are added as biometrics records through the FHIR import (each identified, so the same export imported again adds nothing, and audited as the import is), in the background: 202, status importing; follow it with GET …/{id}/. Once per import: a second request, or one before the export is read, is 409. Readings that would take the record over its limit: 400 naming it, nothing added. ${WHOSE}`,
        params: ParamsSchema,
        querystring: PatientQuerySchema,
        body: AppleHealthMeasurementsBodySchema,
        response: { 202: AppleHealthImportSchema, ...errors },
      },
    },
    async (request, reply) => (reply as FastifyReply).code(202).send(await app.appleHealth.importMeasurements(request.signedIn(), request.params.id, request.body, request.query.patient)),
  );

  app.delete(
    '/api/v1/fhir/apple-health/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Discard an Apple Health import',
        description: `What was read goes (the file is never kept); a reading under way stops; records already added stay. ${WHOSE}`,
        params: ParamsSchema,
        querystring: PatientQuerySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.appleHealth.discard(request.signedIn(), request.params.id, request.query.patient);
      return (reply as FastifyReply).code(204).send(null);
    },
  );
};
