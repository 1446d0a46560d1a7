import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProviderSchedule, ProviderScheduleBody } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** PUT /api/v1/provider/me/schedule/: publishes the schedule (slots cut up to the horizon); answers it with the open slots. */
export const saveSchedule = (body: ProviderScheduleBody) => api.put<ProviderSchedule>('/api/v1/provider/me/schedule/', body);

export function useSaveSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSchedule,
    onSuccess: (schedule) => {
      queryClient.setQueryData(queryKeys.providerConsole.schedule(), schedule);
      return queryClient.invalidateQueries({ queryKey: queryKeys.telehealth.all });
    },
  });
}
