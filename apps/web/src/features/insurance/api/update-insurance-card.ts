import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InsuranceCard } from '@healthbook/shared/contracts/insurance';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { InsuranceCardFields } from './card-fields';

/** PATCH /api/v1/insurance/{id}/ */
export const updateInsuranceCard = ({ id, ...fields }: InsuranceCardFields & { id: number }) => api.patch<InsuranceCard>(`/api/v1/insurance/${id}/`, fields);
export function useUpdateInsuranceCard() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateInsuranceCard, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.insurance.all }) });
}
