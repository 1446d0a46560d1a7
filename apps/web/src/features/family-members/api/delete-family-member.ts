import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/family-members/{id}/ — the family member and all their data. */
export const deleteFamilyMember = (id: number) => api.delete<null>(`/api/v1/family-members/${id}/`);
export function useDeleteFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFamilyMember,
    // The records switcher lists family members too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.familyMembers.all }), queryClient.invalidateQueries({ queryKey: queryKeys.patients.all })]),
  });
}
