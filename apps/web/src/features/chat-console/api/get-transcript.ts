import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatTranscript } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/chat/conversations/{id}/: one conversation and its messages (participants only, else 404). */
export const getTranscript = (id: number) => api.get<ChatTranscript>(`/api/v1/chat/conversations/${id}/`);

export const transcriptQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.chatConsole.transcript(id),
    queryFn: () => getTranscript(id),
  });

export const useTranscript = (id: number | null) => useQuery({ ...transcriptQueryOptions(id ?? 0), enabled: id !== null });
