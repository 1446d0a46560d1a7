import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarEvent } from '@healthbook/shared/contracts/calendar';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/calendar/events/{event_id}/ */
export const getEvent = (id: number) => api.get<CalendarEvent>(`/api/v1/calendar/events/${id}/`);

export const eventQueryOptions = (id: number) => queryOptions({ queryKey: queryKeys.calendar.event(id), queryFn: () => getEvent(id) });

export const useEvent = (id: number) => useQuery(eventQueryOptions(id));
