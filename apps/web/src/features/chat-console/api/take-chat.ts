import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatConversation, TakeChatBody } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * POST /api/v1/chat/queue/take/: a chosen waiting patient ({conversation_id}) or the next one
 * ({provider_type?}). 200: the conversation, now active with this staff member; 409
 * errors:chatTaken (someone else was quicker, or it ended); 404 errors:chatQueueEmpty.
 */
export const takeChat = (body: TakeChatBody) => api.post<ChatConversation>('/api/v1/chat/queue/take/', body);

/** Whatever the answer, the queue and the history are read again. */
export function useTakeChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeChat,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...queryKeys.chatConsole.all, 'queue'] }),
        queryClient.invalidateQueries({ queryKey: [...queryKeys.chatConsole.all, 'conversations'] }),
      ]),
  });
}
