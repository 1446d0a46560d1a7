import { useMutation } from '@tanstack/react-query';
import { chatFilePath } from '@healthbook/shared/chat';
import type { ChatFile } from '@healthbook/shared/chat-protocol';
import { api } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/files';

/**
 * GET /api/v1/chat/files/{messageId}/: a chat file's bytes (participants only), fetched with the
 * Authorization header (never a token in an address) and handed to the browser as a download.
 */
export const downloadChatFile = async (file: Pick<ChatFile, 'id' | 'name'>) => saveBlob(await api.blob(chatFilePath(file.id)), file.name);

export const useDownloadChatFile = () => useMutation({ mutationFn: downloadChatFile });
