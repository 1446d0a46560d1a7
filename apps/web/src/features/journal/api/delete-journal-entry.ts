import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/journal/{id}/ */
export const deleteJournalEntry = (id: number) => api.delete<null>(`/api/v1/journal/${id}/`);

export function useDeleteJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteJournalEntry, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.journal.all }) });
}
