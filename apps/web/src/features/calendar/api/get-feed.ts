import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CalendarFeed } from '@healthbook/shared/contracts/calendar';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/calendar/feed/: whether the private feed is on (its address is never answered again). */
export const getFeed = () => api.get<CalendarFeed>('/api/v1/calendar/feed/');

export const feedQueryOptions = () => queryOptions({ queryKey: queryKeys.calendarFeed.status(), queryFn: getFeed });

export const useFeed = () => useQuery(feedQueryOptions());
