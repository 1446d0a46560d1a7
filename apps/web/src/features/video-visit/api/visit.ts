import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Visit } from '@healthbook/shared/contracts/appointments';
import type { ChatTicket } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const base = (slot: number) => `/api/v1/appointments/${slot}/visit/`;

/** POST …/visit/ticket/: a single-use ticket for the visit's socket. */
export const getVisitTicket = (slot: number) => api.post<ChatTicket>(`${base(slot)}ticket/`);

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
