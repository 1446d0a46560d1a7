import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CareAccepted, CareInvitationPreview, CareSignupCodeBody } from '@healthbook/shared/contracts/care-network';
import type { InvitationDetails } from '@healthbook/shared/contracts/invitations';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/care-network/invitations/preview/ (public): what the invitation offers; 404 when there is none. */
export const previewInvitation = (token: string) => api.post<CareInvitationPreview>('/api/v1/care-network/invitations/preview/', { token });

export const invitationQueryOptions = (token: string | null, link: number, language: string) =>
  queryOptions({
    queryKey: queryKeys.careNetwork.invitation(link, language),
    queryFn: () => previewInvitation(token ?? ''),
    enabled: token !== null,
    retry: false,
    staleTime: 0,
  });

export const useInvitationPreview = (token: string | null, link: number, language: string) => useQuery(invitationQueryOptions(token, link, language));

/** POST /api/v1/care-network/invitations/accept/: the signed-in, invited account accepts; answers the patient whose record opens. */
export const acceptInvitation = (token: string) => api.post<CareAccepted>('/api/v1/care-network/invitations/accept/', { token });

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.patients.all }), queryClient.invalidateQueries({ queryKey: queryKeys.careNetwork.all })]),
  });
}

/** POST /api/v1/care-network/invitations/decline/ */
export const declineInvitation = (token: string) => api.post<null>('/api/v1/care-network/invitations/decline/', { token });

export const useDeclineInvitation = () => useMutation({ mutationFn: declineInvitation });

/**
 * For an invited person without an account: POST …/invitations/signup-code/ gives a sign-up
 * access code for the invited address, then POST /api/v1/users/validate/ (the sign-up's own
 * first step) answers the details the sign-up page starts from.
 */
export async function joinThroughSignup(body: CareSignupCodeBody, orgId: number): Promise<InvitationDetails> {
  const { signup_code } = await api.post<{ signup_code: string }>('/api/v1/care-network/invitations/signup-code/', body);
  const details = await api.post<InvitationDetails>('/api/v1/users/validate/', { org_id: orgId, signup_code });
  return { ...details, signup_code: details.signup_code || signup_code };
}

export const useJoinThroughSignup = () => useMutation({ mutationFn: ({ body, orgId }: { body: CareSignupCodeBody; orgId: number }) => joinThroughSignup(body, orgId) });
