import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateFamilyMemberBody, FamilyMember, UpdateFamilyMemberBody } from '@healthbook/shared/contracts/family-members';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/family-members/ (a new one) or PATCH /api/v1/family-members/{id}/ (changes). */
export const saveFamilyMember = ({ id, body }: { id: number | null; body: CreateFamilyMemberBody | UpdateFamilyMemberBody }) =>
  id === null ? api.post<FamilyMember>('/api/v1/family-members/', body) : api.patch<FamilyMember>(`/api/v1/family-members/${id}/`, body);

export function useSaveFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveFamilyMember,
    // The records switcher lists family members too.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.familyMembers.all }), queryClient.invalidateQueries({ queryKey: queryKeys.patients.all })]),
  });
}
