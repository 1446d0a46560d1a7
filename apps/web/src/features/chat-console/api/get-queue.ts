import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueueEntry } from '@healthbook/shared/chat-protocol';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/chat/queue/: the patients waiting in the queues this staff member serves. */
export const getQueue = () => api.get<QueueEntry[]>('/api/v1/chat/queue/');

/** Loaded once; the socket's `queue` events then write it (see use-chat-console.ts). */
export const queueQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.chatConsole.queue(),
    queryFn: getQueue,
    staleTime: Infinity,
  });

export const useQueue = () => useQuery(queueQueryOptions());
