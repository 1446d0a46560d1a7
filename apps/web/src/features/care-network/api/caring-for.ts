import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CaringFor } from '@healthbook/shared/contracts/care-network';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/care-network/caring-for/: the records the signed-in user was let into. */
export const listCaringFor = () => api.get<CaringFor[]>('/api/v1/care-network/caring-for/');

export const caringForQueryOptions = () => queryOptions({ queryKey: queryKeys.careNetwork.caringFor(), queryFn: listCaringFor });

export const useCaringFor = () => useQuery(caringForQueryOptions());

/** DELETE /api/v1/care-network/caring-for/{patientId}/: stop seeing a record. */
export const leaveCaringFor = (patientId: number) => api.delete<null>(`/api/v1/care-network/caring-for/${patientId}/`);

export function useLeaveCaringFor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveCaringFor,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.careNetwork.all }), queryClient.invalidateQueries({ queryKey: queryKeys.patients.all })]),
  });
}
