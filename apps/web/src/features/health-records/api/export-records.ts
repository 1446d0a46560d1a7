import { useMutation } from '@tanstack/react-query';
import type { ExportBody, ExportLink } from '@healthbook/shared/contracts/exports';
import { api } from '../../../lib/api-client';

/** POST /api/v1/hr/export/: the PDF is made; the answer is a link that opens it, for you only, for 15 minutes. */
export const createExport = (body: ExportBody) => api.post<ExportLink>('/api/v1/hr/export/', body);

/** GET the export's link (with the Authorization header): the PDF, its progress reported as it arrives. */
export const downloadExport = (url: string, onProgress?: (fraction: number | null) => void) => api.download(url, onProgress);

/** Where an export is: the server making the PDF, then the PDF arriving (fraction 0..1, or null when its size is unknown). */
export type ExportProgress = { phase: 'making' } | { phase: 'downloading'; fraction: number | null };

export interface ExportRequest {
  body: ExportBody;
  onProgress?: (progress: ExportProgress) => void;
}

/** Both steps of an export: make the PDF, then fetch it. Answers the PDF (a Blob) and its link. Nothing cached changes. */
export function useExportRecords() {
  return useMutation({
    mutationFn: async ({ body, onProgress }: ExportRequest) => {
      onProgress?.({ phase: 'making' });
      const link = await createExport(body);
      const pdf = await downloadExport(link.url, (fraction) => onProgress?.({ phase: 'downloading', fraction }));
      return { link, pdf };
    },
  });
}
