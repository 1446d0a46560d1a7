import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/connection-hub/links/{id}/: unlinked for both accounts at once. */
export const deleteLink = (id: number) => api.delete<null>(`/api/v1/connection-hub/links/${id}/`);

export function useDeleteLink() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteLink, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.connectionHub.all }) });
}
