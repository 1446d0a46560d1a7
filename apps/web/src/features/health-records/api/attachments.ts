import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Attachment } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UploadAttachment {
  category: string;
  recordId: number;
  file: File;
  onProgress?: (fraction: number) => void;
}

/** POST /api/v1/hr/{id}/attachment/ (multipart: content_type, content_object_id, file). */
export function uploadAttachment({ category, recordId, file, onProgress }: UploadAttachment) {
  const form = new FormData();
  form.append('content_type', category);
  form.append('content_object_id', String(recordId));
  form.append('file', file);
  return api.upload<Attachment>(`/api/v1/hr/${recordId}/attachment/`, form, onProgress);
}

/** DELETE /api/v1/hr/attachment/{id} */
export const deleteAttachment = (id: number) => api.delete<null>(`/api/v1/hr/attachment/${id}`);

const refresh = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.records.all }), queryClient.invalidateQueries({ queryKey: queryKeys.documents.all })]);

export function useUploadAttachment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadAttachment, onSuccess: () => refresh(queryClient) });
}

export function useDeleteAttachment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteAttachment, onSuccess: () => refresh(queryClient) });
}
