import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatConversation, EndChatBody } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/peercoaching/endchat/ {conversation_id} (staff must name it): the conversation, ended. 404 when it is not open. */
export const endChat = (conversationId: number) =>
  api.post<ChatConversation>('/api/v1/peercoaching/endchat/', { conversation_id: conversationId } satisfies EndChatBody);

export function useEndChat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endChat,
    onSettled: (_data, _error, conversationId) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...queryKeys.chatConsole.all, 'conversations'] }),
        queryClient.invalidateQueries({ queryKey: queryKeys.chatConsole.transcript(conversationId) }),
      ]),
  });
}
