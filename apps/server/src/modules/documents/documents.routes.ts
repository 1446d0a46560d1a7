import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendStoredFile } from '../../lib/file-reply';
import {
  AttachmentIdParamsSchema,
  AttachmentParamsSchema,
  AttachmentSchema,
  DetailErrorSchema,
  DocumentListQuerySchema,
  DocumentListSchema,
  DocumentSchema,
  DOCUMENT_MAX_BYTES,
  FieldErrorsSchema,
  FolderBodySchema,
  FolderListSchema,
  FolderSchema,
  PatientQuerySchema,
  RecordIdParamsSchema,
  UpdateDocumentBodySchema,
} from '@healthbook/shared';
import { readUpload } from '../../lib/multipart';
import { DOCUMENT_MAX_MEGABYTES } from './documents.service';

const errors = { 400: FieldErrorsSchema.or(DetailErrorSchema), 401: DetailErrorSchema, 403: DetailErrorSchema, 404: DetailErrorSchema };
const security = [{ bearerAuth: [] }];
const WHOSE = 'Acts on `?patient=` (default: your own); anything not yours, or not there, is 404 alike.';
const FILE_RULES =
  'multipart/form-data with one file in the field "file": PDF, PNG, JPEG, GIF, WebP or HEIC, decided by its content (never its name or declared type), at most 20 MB (checked while it streams). Image metadata (EXIF, GPS, XMP) is removed before it is stored.';

/** Uploads: multipart bodies are parsed only by the routes of this encapsulated plugin, within these limits. */
const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 10, parts: 11, fieldSize: 1024, headerPairs: 50 } });

  app.post(
    '/api/v1/hr/:id/attachment/',
    {
      config: { feature: 'health-records' },
      schema: {
        tags: ['health records'],
        summary: 'Attach a file to a record',
        description: `${FILE_RULES} Text fields: content_type (the record's category) and content_object_id (the record's id); when given, they must match the record of the address. ${WHOSE}`,
        consumes: ['multipart/form-data'],
        security,
        params: AttachmentParamsSchema,
        querystring: PatientQuerySchema,
        response: { 201: AttachmentSchema, 413: FieldErrorsSchema, 415: DetailErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(request, { maxMegabytes: DOCUMENT_MAX_MEGABYTES });
      return reply.code(201).send(await app.documents.attach(request.signedIn(), request.params.id, fields, file, request.query.patient));
    },
  );

  app.post(
    '/api/v1/documents/',
    {
      config: { feature: 'document-center' },
      schema: {
        tags: ['documents'],
        summary: 'Upload a document to the Document Center',
        description: `${FILE_RULES} Text field folder: a folder id (none: no folder). ${WHOSE}`,
        consumes: ['multipart/form-data'],
        security,
        querystring: PatientQuerySchema,
        response: { 201: DocumentSchema, 413: FieldErrorsSchema, 415: DetailErrorSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { file, fields } = await readUpload(request, { maxMegabytes: DOCUMENT_MAX_MEGABYTES });
      return reply.code(201).send(await app.documents.upload(request.signedIn(), fields, file, request.query.patient));
    },
  );
};

/** Documents and attachments (authenticated context). */
export const documentsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(uploadRoutes);

  app.delete(
    '/api/v1/hr/attachment/:id',
    {
      config: { feature: 'health-records' },
      schema: {
        tags: ['health records'],
        summary: 'Remove an attachment from its record',
        description: `An attachment uploaded to the record is deleted with its file; a Document Center document attached to it is detached and stays. ${WHOSE}`,
        security,
        params: AttachmentIdParamsSchema,
        querystring: PatientQuerySchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await app.documents.removeAttachment(request.signedIn(), request.params.id, request.query.patient);
      return reply.code(204).send(null);
    },
  );

  const config = { feature: 'document-center' };
  const tags = ['documents'];

  app.get(
    '/api/v1/documents/',
    {
      config,
      schema: { tags, security, summary: 'The documents of the Document Center (and the attachments of records)', description: WHOSE, querystring: DocumentListQuerySchema, response: { 200: DocumentListSchema, ...errors } },
    },
    async (request) => app.documents.list(request.signedIn(), request.query),
  );

  app.get(
    '/api/v1/documents/folders/',
    { config, schema: { tags, security, summary: 'The folders, with how many documents each holds', description: WHOSE, querystring: PatientQuerySchema, response: { 200: FolderListSchema, ...errors } } },
    async (request) => app.documents.folders(request.signedIn(), request.query.patient),
  );

  app.post(
    '/api/v1/documents/folders/',
    { config, schema: { tags, security, summary: 'Create a folder', description: `Names are unique per patient, whatever their case. ${WHOSE}`, querystring: PatientQuerySchema, body: FolderBodySchema, response: { 201: FolderSchema, ...errors } } },
    async (request, reply) => reply.code(201).send(await app.documents.createFolder(request.signedIn(), request.body.name, request.query.patient)),
  );

  app.patch(
    '/api/v1/documents/folders/:id/',
    { config, schema: { tags, security, summary: 'Rename a folder', description: WHOSE, params: RecordIdParamsSchema, querystring: PatientQuerySchema, body: FolderBodySchema, response: { 200: FolderSchema, ...errors } } },
    async (request) => app.documents.renameFolder(request.signedIn(), request.params.id, request.body.name, request.query.patient),
  );

  app.delete(
    '/api/v1/documents/folders/:id/',
    {
      config,
      schema: { tags, security, summary: 'Delete an empty folder', description: `A folder that still holds documents answers 409. ${WHOSE}`, params: RecordIdParamsSchema, querystring: PatientQuerySchema, response: { 204: z.null(), 409: DetailErrorSchema, ...errors } },
    },
    async (request, reply) => {
      await app.documents.deleteFolder(request.signedIn(), request.params.id, request.query.patient);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/v1/documents/:id/',
    { config, schema: { tags, security, summary: 'One document', description: WHOSE, params: RecordIdParamsSchema, querystring: PatientQuerySchema, response: { 200: DocumentSchema, ...errors } } },
    async (request) => app.documents.get(request.signedIn(), request.params.id, request.query.patient),
  );

  app.patch(
    '/api/v1/documents/:id/',
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Move a document to a folder (null: none), rename it, or attach it to a record (null: detach)',
        description: WHOSE,
        params: RecordIdParamsSchema,
        querystring: PatientQuerySchema,
        body: UpdateDocumentBodySchema,
        response: { 200: DocumentSchema, ...errors },
      },
    },
    async (request) => app.documents.update(request.signedIn(), request.params.id, request.body, request.query.patient),
  );

  app.delete(
    '/api/v1/documents/:id/',
    { config, schema: { tags, security, summary: 'Delete a document and its file', description: WHOSE, params: RecordIdParamsSchema, querystring: PatientQuerySchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await app.documents.remove(request.signedIn(), request.params.id, request.query.patient);
      return reply.code(204).send(null);
    },
  );

  // The file of a document or an attachment: readable by whoever may read the record it belongs to
  // (no feature check: a record's attachment stays readable where the Document Center is off).
  app.get(
    '/api/v1/documents/:id/file/',
    {
      schema: {
        tags,
        security,
        summary: "A document's or an attachment's file",
        description: `Sent with its type, nosniff and a sandbox policy; inline (shown in the page) unless ?download=1. ${WHOSE}`,
        params: RecordIdParamsSchema,
        querystring: PatientQuerySchema.extend({ download: z.enum(['1', 'true']).optional() }),
        response: { 200: z.any().describe('the file'), ...errors },
      },
    },
    async (request, reply) => {
      const file = await app.documents.file(request.signedIn(), request.params.id, request.query.patient);
      return sendStoredFile(reply, file, request.query.download ? 'attachment' : 'inline');
    },
  );
};
