import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarItem } from '@healthbook/shared/contracts/calendar';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/calendar/events/?start=&end=&tz=: events (recurring ones once per occurrence) and booked appointments, days of `tz`, end included. */
export const listCalendarItems = (start: string, end: string, tz: string) =>
  api.get<CalendarItem[]>(`/api/v1/calendar/events/?${new URLSearchParams({ start, end, tz }).toString()}`);

export const calendarItemsQueryOptions = (start: string, end: string, tz: string) =>
  queryOptions({ queryKey: queryKeys.calendar.items(start, end, tz), queryFn: () => listCalendarItems(start, end, tz) });

/** The items of a window; the previous window's stay on screen while the next one loads. */
export const useCalendarItems = (start: string, end: string, tz: string, enabled = true) =>
  useQuery({ ...calendarItemsQueryOptions(start, end, tz), placeholderData: keepPreviousData, enabled });
