import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/calendar/events/{event_id}/ (a recurring event: the whole series). */
export const deleteEvent = (id: number) => api.delete<null>(`/api/v1/calendar/events/${id}/`);

export function useDeleteEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEvent,
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.calendar.event(id) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.calendar.all });
    },
  });
}
