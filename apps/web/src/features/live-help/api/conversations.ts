import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChatConversation, ChatTranscript } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/chat/conversations/: the patient's chats, newest first. */
export const listConversations = () => api.get<ChatConversation[]>('/api/v1/chat/conversations/');
export const conversationsQueryOptions = () => queryOptions({ queryKey: queryKeys.chat.conversations(), queryFn: listConversations });
export const useConversations = () => useQuery(conversationsQueryOptions());

/** GET /api/v1/chat/conversations/{id}/: one chat and its messages (participants only). */
export const getConversation = (id: number) => api.get<ChatTranscript>(`/api/v1/chat/conversations/${id}/`);
export const conversationQueryOptions = (id: number) => queryOptions({ queryKey: queryKeys.chat.conversation(id), queryFn: () => getConversation(id) });
export const useConversation = (id: number) => useQuery(conversationQueryOptions(id));
