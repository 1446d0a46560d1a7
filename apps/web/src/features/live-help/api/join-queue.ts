import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChatDetails, JoinQueueBody } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/peercoaching/sendmessagetoqueue/: joins the queue (201), or answers the chat already open (200). */
export const joinQueue = (body: JoinQueueBody) => api.post<ChatDetails>('/api/v1/peercoaching/sendmessagetoqueue/', body);

export function useJoinQueue() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: joinQueue, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.chat.all }) });
}
