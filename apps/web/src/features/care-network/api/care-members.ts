import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CareMember, InviteCareMemberBody, UpdateCareMemberBody } from '@healthbook/shared/contracts/care-network';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/care-network/: the people in the signed-in user's own record (pending, active, expired). */
export const listCareMembers = () => api.get<CareMember[]>('/api/v1/care-network/');

export const careMembersQueryOptions = () => queryOptions({ queryKey: queryKeys.careNetwork.members(), queryFn: listCareMembers });

export const useCareMembers = () => useQuery(careMembersQueryOptions());

/** Every change to the network touches the list (and the access log, which records it). */
function useInvalidateNetwork() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.careNetwork.all });
}

/** POST /api/v1/care-network/: invite a person (the e-mail goes out at once). */
export const inviteCareMember = (body: InviteCareMemberBody) => api.post<CareMember>('/api/v1/care-network/', body);

export function useInviteCareMember() {
  const onSuccess = useInvalidateNetwork();
  return useMutation({ mutationFn: inviteCareMember, onSuccess });
}

/** PATCH /api/v1/care-network/{id}/: change what a person may do (effective at once). */
export const updateCareMember = ({ id, body }: { id: number; body: UpdateCareMemberBody }) => api.patch<CareMember>(`/api/v1/care-network/${id}/`, body);

export function useUpdateCareMember() {
  const onSuccess = useInvalidateNetwork();
  return useMutation({ mutationFn: updateCareMember, onSuccess });
}

/** DELETE /api/v1/care-network/{id}/: remove a person (effective at once; an invitation is withdrawn). */
export const removeCareMember = (id: number) => api.delete<null>(`/api/v1/care-network/${id}/`);

export function useRemoveCareMember() {
  const onSuccess = useInvalidateNetwork();
  return useMutation({ mutationFn: removeCareMember, onSuccess });
}

/** POST /api/v1/care-network/{id}/resend/: a new link for a pending or expired invitation. */
export const resendCareInvitation = (id: number) => api.post<CareMember>(`/api/v1/care-network/${id}/resend/`, {});

export function useResendCareInvitation() {
  const onSuccess = useInvalidateNetwork();
  return useMutation({ mutationFn: resendCareInvitation, onSuccess });
}
