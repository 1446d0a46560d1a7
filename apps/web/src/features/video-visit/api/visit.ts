import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Visit, VisitNoteBody } from '@healthbook/shared/contracts/appointments';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { VISIT_NOTE_NONE } from '@healthbook/shared/visits';
import type { ChatTranscript, SocketTicket } from '@healthbook/shared/contracts/chat';
import { ApiError, api } from '../../../lib/api-client';
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

/** GET /api/v1/chat/conversations/{id}/: the visit's chat as it stays with the appointment. */
export const useVisitTranscript = (conversationId: number | null) =>
  useQuery({
    queryKey: queryKeys.chat.conversation(conversationId ?? 0),
    queryFn: () => api.get<ChatTranscript>(`/api/v1/chat/conversations/${conversationId}/`),
    enabled: conversationId !== null,
  });

/** GET …/visit/note/: the provider's note of the visit (a medical visit of the patient's record), or null before one is written. */
export const useVisitNote = (slot: number, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.appointments.visitNote(slot),
    enabled,
    queryFn: async () => {
      try {
        return await api.get<HealthRecord>(`${base(slot)}note/`);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && (error.data as { code?: unknown } | null)?.code === VISIT_NOTE_NONE) return null;
        throw error;
      }
    },
  });

/** POST …/visit/note/: writes the note (the first time a new medical visit of the patient, then that one again). */
export function useSaveVisitNote(slot: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: VisitNoteBody) => api.post<HealthRecord>(`${base(slot)}note/`, body),
    onSuccess: (record) => queryClient.setQueryData(queryKeys.appointments.visitNote(slot), record),
  });
}
