import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FamilyMember, InviteFamilyMemberBody } from '@healthbook/shared/contracts/family-members';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/family-members/{id}/invite/ — an account of their own, by e-mail. */
export const inviteFamilyMember = ({ id, body }: { id: number; body: InviteFamilyMemberBody }) => api.post<FamilyMember>(`/api/v1/family-members/${id}/invite/`, body);
export function useInviteFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: inviteFamilyMember, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.familyMembers.all }) });
}
