import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarEvent, CalendarEventBody } from '@healthbook/shared/contracts/calendar';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface SaveEvent {
  /** Absent: a new event (POST); present: the event replaced (PUT, one-off events only). */
  id?: number;
  body: CalendarEventBody;
}

/** POST /api/v1/calendar/events/ or PUT /api/v1/calendar/events/{event_id}/ */
export const saveEvent = ({ id, body }: SaveEvent) =>
  id === undefined ? api.post<CalendarEvent>('/api/v1/calendar/events/', body) : api.put<CalendarEvent>(`/api/v1/calendar/events/${id}/`, body);

/** Every window of the calendar is read again; the event is known at once. */
export function useSaveEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveEvent,
    onSuccess: (event) => {
      queryClient.setQueryData(queryKeys.calendar.event(event.event_id), event);
      return queryClient.invalidateQueries({ queryKey: queryKeys.calendar.all });
    },
  });
}
