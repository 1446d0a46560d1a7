import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Visit } from '@healthbook/shared/contracts/appointments';
import type { ChatTranscript, SocketTicket } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const base = (slot: number) => `/api/v1/appointments/${slot}/visit/`;

/** POST …/visit/ticket/: a single-use ticket for the visit's socket. */
export const getVisitTicket = (slot: number) => api.post<SocketTicket>(`${base(slot)}ticket/`);

export type VisitAction = 'start' | 'extend' | 'end';

/** The provider's start (admits the patient side) and extend, and either side's end; the answer is the visit as it now is. */
export function useVisitAction(slot: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: VisitAction) => api.post<Visit>(`${base(slot)}${action}/`),
    onSuccess: (visit) => {
      queryClient.setQueryData(queryKeys.appointments.visit(slot), visit);
      return queryClient.invalidateQueries({ queryKey: queryKeys.appointments.detail(slot) });
    },
  });
}

/** POST /api/v1/chat/ticket/: a single-use ticket for the chat's socket (the visit's chat is a conversation of the live chat). */
export const getChatTicket = async (): Promise<string> => (await api.post<SocketTicket>('/api/v1/chat/ticket/', {})).ticket;

/** GET /api/v1/chat/conversations/{id}/: the visit's chat as it stays with the appointment. */
export const useVisitTranscript = (conversationId: number | null) =>
  useQuery({
    queryKey: queryKeys.chat.conversation(conversationId ?? 0),
    queryFn: () => api.get<ChatTranscript>(`/api/v1/chat/conversations/${conversationId}/`),
    enabled: conversationId !== null,
  });
