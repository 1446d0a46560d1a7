import { userTimeZone } from '../../../lib/zoned-time';
import { saveBlob, shareBlob } from './share-fetch';

/** GET /api/v1/sharing/public/pdf/ (X-Share-Session): the shared record as a PDF (its times in the reader's zone, as their page shows them), saved as health-record.pdf. */
export async function downloadSharedPdf(session: string): Promise<void> {
  saveBlob(await shareBlob(`/api/v1/sharing/public/pdf/?time_zone=${encodeURIComponent(userTimeZone())}`, { session }), 'health-record.pdf');
}

/** GET /api/v1/sharing/public/files/{id}/ (X-Share-Session): a shared document or an attachment of a shared record. */
export const fetchSharedFile = (session: string, id: number, signal?: AbortSignal) => shareBlob(`/api/v1/sharing/public/files/${id}/`, { session, signal });

export async function downloadSharedFile(session: string, id: number, fileName: string): Promise<void> {
  saveBlob(await fetchSharedFile(session, id), fileName);
}
