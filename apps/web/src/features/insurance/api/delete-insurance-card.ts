import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/insurance/{id}/ (its photos go with it) */
export const deleteInsuranceCard = (id: number) => api.delete<null>(`/api/v1/insurance/${id}/`);
export function useDeleteInsuranceCard() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteInsuranceCard, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.insurance.all }) });
}
