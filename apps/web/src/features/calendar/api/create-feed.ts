import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '@healthbook/shared/contracts/calendar';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/calendar/feed/: a new address (it replaces the old one), answered this once. */
export const createFeed = () => api.post<CalendarFeed>('/api/v1/calendar/feed/', {});

/** The address stays in the mutation's answer only: the status kept in the cache never holds it. */
export function useCreateFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeed,
    onSuccess: (feed) => queryClient.setQueryData(queryKeys.calendarFeed.status(), { ...feed, url: null }),
  });
}
