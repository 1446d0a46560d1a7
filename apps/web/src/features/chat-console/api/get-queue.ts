import { queryOptions, useQuery } from '@tanstack/react-query';
import type { QueueEntry } from '@healthbook/shared/chat-protocol';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/chat/queue/: the patients waiting in the queues this staff member serves. */
export const getQueue = () => api.get<QueueEntry[]>('/api/v1/chat/queue/');

/** Loaded once per language (its reasons are in words); the socket's `queue` events then write it (see use-chat-console.ts). */
export const queueQueryOptions = (language: string) =>
  queryOptions({
    queryKey: queryKeys.chatConsole.queue(language),
    queryFn: getQueue,
    staleTime: Infinity,
  });

export const useQueue = (language: string) => useQuery(queueQueryOptions(language));
