import { saveBlob, shareBlob } from './share-fetch';

/** GET /api/v1/sharing/public/pdf/ (X-Share-Session): the shared record as a PDF, saved as health-record.pdf. */
export async function downloadSharedPdf(session: string): Promise<void> {
  saveBlob(await shareBlob('/api/v1/sharing/public/pdf/', { session }), 'health-record.pdf');
}

/** GET /api/v1/sharing/public/files/{id}/ (X-Share-Session): a shared document or an attachment of a shared record. */
export const fetchSharedFile = (session: string, id: number, signal?: AbortSignal) => shareBlob(`/api/v1/sharing/public/files/${id}/`, { session, signal });

export async function downloadSharedFile(session: string, id: number, fileName: string): Promise<void> {
  saveBlob(await fetchSharedFile(session, id), fileName);
}
