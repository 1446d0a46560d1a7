import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chatFilePath } from '@healthbook/shared/chat';
import type { DocumentDto } from '@healthbook/shared/contracts/documents';
import { api } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/files';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/chat/files/{messageId}/: a chat file's bytes (participants only), handed to the browser as a download. */
export async function downloadChatFile(messageId: number, fileName: string): Promise<void> {
  saveBlob(await api.blob(chatFilePath(messageId)), fileName);
}

/** POST /api/v1/chat/files/{messageId}/save/: a copy of the file in the patient's Document Center. */
export const saveChatFileToDocuments = (messageId: number) => api.post<DocumentDto>(`/api/v1/chat/files/${messageId}/save/`, {});

export function useSaveChatFile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveChatFileToDocuments, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }) });
}
