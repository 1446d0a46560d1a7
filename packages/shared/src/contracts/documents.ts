import { z } from 'zod';
import { cleanText, isSingleLine } from '../validation';
import { IdParamSchema, IdSchema } from './common';
import { readOnlyFields, writableBody } from './round-trip';

/**
 * The Document Center (health-vault): a patient's folders and documents (PDF and images). A
 * record's attachments are documents too: uploaded to a record they go with it; uploaded here
 * and attached to a record they stay here when the record goes.
 */

/** The largest document or attachment (bytes). */
export const DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;

export const DocumentSchema = z
  .object({
    id: z.number().int(),
    file_name: z.string(),
    content_type: z.string().describe('decided by the file’s content: application/pdf, image/png, image/jpeg, image/gif, image/webp or image/heic; application/xml for a C-CDA kept by a FHIR import (POST /api/v1/fhir/convert/ with keep_document)'),
    size: z.number().int(),
    url: z.string().describe('download address (GET, with your Authorization header; ?download=1 for an attachment disposition)'),
    created_at: z.string(),
    folder: z.number().int().nullable(),
    origin: z.enum(['attachment', 'document']).describe('attachment: uploaded to a record (deleted with it); document: uploaded to the Document Center'),
    record: z.object({ id: z.number().int(), record_type: z.string(), title: z.string() }).nullable().describe('the record it is attached to'),
  })
  .meta({ id: 'Document' });
export type DocumentDto = z.infer<typeof DocumentSchema>;
export const DocumentListSchema = z.array(DocumentSchema);

export const FolderSchema = z
  .object({ id: z.number().int(), name: z.string(), documents: z.number().int(), created_at: z.string() })
  .meta({ id: 'DocumentFolder' });
export type FolderDto = z.infer<typeof FolderSchema>;
export const FolderListSchema = z.array(FolderSchema);

/** GET /api/v1/documents/ */
export const DocumentListQuerySchema = z.object({
  patient: IdParamSchema.optional(),
  folder: z.union([z.literal('none'), IdParamSchema]).optional().describe('a folder id, or "none" for documents in no folder (default: all)'),
  attached: z.enum(['true', 'false']).optional().describe('true: only documents attached to a record'),
  search: z.string().max(200).optional(),
});
export type DocumentListQuery = z.output<typeof DocumentListQuerySchema>;

/** What a document's answer holds that a client cannot set: sent back, ignored. */
export const DOCUMENT_READ_ONLY = readOnlyFields(DocumentSchema, ['id', 'content_type', 'size', 'url', 'created_at', 'origin']);

/**
 * PATCH /api/v1/documents/{id}/: move, rename, attach to a record or detach (null). `record` is
 * the record's id, or the record as the answer names it ({id, …}).
 */
export const UpdateDocumentBodySchema = writableBody(
  z.object({
    folder: IdSchema.nullable().optional(),
    file_name: z.string().trim().min(1, { message: 'validation:required' }).max(200).optional(),
    record: z
      .union([IdSchema, z.object({ id: IdSchema }).transform((r) => r.id)])
      .nullable()
      .optional(),
  }),
  DOCUMENT_READ_ONLY,
);
export type UpdateDocumentBody = z.output<typeof UpdateDocumentBodySchema>;

/** What a folder's answer holds that a client cannot set: sent back, ignored. */
export const FOLDER_READ_ONLY = readOnlyFields(FolderSchema, ['id', 'documents', 'created_at']);

/** POST /api/v1/documents/folders/ and PATCH …/{id}/ */
export const FolderBodySchema = writableBody(z.object({
  name: z
    .string({ message: 'validation:folderNameRequired' })
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1, { message: 'validation:folderNameRequired' })
        .max(100)
        .refine(isSingleLine, { message: 'validation:textControlCharacters' }),
    ),
}), FOLDER_READ_ONLY);
export type FolderBody = z.output<typeof FolderBodySchema>;
