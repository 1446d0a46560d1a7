import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CalendarFeed } from '@healthbook/shared/contracts/calendar';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/calendar/feed/: the feed's address stops working. */
export const deleteFeed = () => api.delete<null>('/api/v1/calendar/feed/');

export function useDeleteFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFeed,
    onSuccess: () => queryClient.setQueryData<CalendarFeed>(queryKeys.calendarFeed.status(), { active: false, created_at: null, url: null }),
  });
}
