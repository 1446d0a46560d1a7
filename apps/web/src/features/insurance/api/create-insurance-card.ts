import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InsuranceCard } from '@healthbook/shared/contracts/insurance';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import type { InsuranceCardFields } from './card-fields';

/** POST /api/v1/insurance/ */
export const createInsuranceCard = (fields: InsuranceCardFields) => api.post<InsuranceCard>('/api/v1/insurance/', fields);
export function useCreateInsuranceCard() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createInsuranceCard, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.insurance.all }) });
}
