import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/chat/conversations/[?patient=ID]: this staff member's conversations (with one patient), newest first. */
export const listConversations = (patient: number | null) =>
  api.get<ChatConversation[]>(`/api/v1/chat/conversations/${patient !== null ? `?patient=${patient}` : ''}`);

export const conversationsQueryOptions = (patient: number | null) =>
  queryOptions({
    queryKey: queryKeys.chatConsole.conversations(patient),
    queryFn: () => listConversations(patient),
  });

export const useConversations = (patient: number | null, enabled = true) => useQuery({ ...conversationsQueryOptions(patient), enabled });
