import { useMutation } from '@tanstack/react-query';
import type { ExportBody, ExportLink, ExportStatus } from '@healthbook/shared/contracts/exports';
import { api, ApiError } from '../../../lib/api-client';

/**
 * POST /api/v1/hr/export/ with `Prefer: respond-async`: answered at once (202) with the export's
 * state; the PDF is made meanwhile, and its state (GET status_url) says how far it is.
 */
export const startExport = (body: ExportBody) => api.post<ExportStatus>('/api/v1/hr/export/', body, { headers: { Prefer: 'respond-async' } });

/** GET an export's state: running (how far), done (its link) or failed (why). */
export const getExportStatus = (statusUrl: string) => api.get<ExportStatus>(statusUrl);

/** GET the export's link (with the Authorization header): the PDF, its progress reported as it arrives. */
export const downloadExport = (url: string, onProgress?: (fraction: number | null) => void) => api.download(url, onProgress);

/** Where an export is: the server making the PDF (how far, 0..1), then the PDF arriving (0..1, or null when its size is unknown). */
export type ExportProgress = { phase: 'making'; fraction: number } | { phase: 'downloading'; fraction: number | null };

export interface ExportRequest {
  body: ExportBody;
  onProgress?: (progress: ExportProgress) => void;
}

/** How often a running export's state is asked for. */
const POLL_MS = 700;

/** Asks for the export's state until it is made (its link) or has failed (an error with the server's reason). */
async function whenMade(started: ExportStatus, onProgress?: (progress: ExportProgress) => void): Promise<ExportLink> {
  let state = started;
  while (state.status === 'running') {
    onProgress?.({ phase: 'making', fraction: state.progress });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    state = await getExportStatus(state.status_url);
  }
  if (state.status === 'failed' || !state.url) throw new ApiError(409, { detail: state.detail });
  onProgress?.({ phase: 'making', fraction: 1 });
  return { url: state.url, expires_at: state.expires_at, records: state.records };
}

/** Both steps of an export: make the PDF (its progress followed), then fetch it. Answers the PDF (a Blob) and its link. Nothing cached changes. */
export function useExportRecords() {
  return useMutation({
    mutationFn: async ({ body, onProgress }: ExportRequest) => {
      onProgress?.({ phase: 'making', fraction: 0 });
      const link = await whenMade(await startExport(body), onProgress);
      const pdf = await downloadExport(link.url, (fraction) => onProgress?.({ phase: 'downloading', fraction }));
      return { link, pdf };
    },
  });
}
