import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/admin/sources/{id}/: patients' connections to it end; the records it brought stay. */
export const deleteFhirSource = (id: number) => api.delete<null>(`/api/v1/admin/sources/${id}/`);

export function useDeleteFhirSource() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteFhirSource, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sources.all }) });
}
