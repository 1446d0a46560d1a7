import type { Attachment } from '@healthbook/shared';
import type { AttachmentRow } from './documents.repository';

/** Where a document's file is downloaded (with the same rights as reading it). */
export const documentFileUrl = (id: number) => `/api/v1/documents/${id}/file/`;

/** A document as a record's attachment (the spec's attachment answer). */
export function presentAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    file_name: row.file_name,
    content_type: row.content_type,
    size: row.size,
    url: documentFileUrl(row.id),
    created_at: typeof row.created_at === 'string' ? row.created_at : row.created_at.toISOString(),
  };
}
