import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteStaffBody, Person } from '@healthbook/shared/contracts/people';
import type { AssignableRole } from '@healthbook/shared/people';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type PersonAction =
  | { kind: 'roles'; userId: number; roles: AssignableRole[] }
  | { kind: 'deactivate' | 'reactivate' | 'unlock' | 'resend-invitation'; userId: number }
  | { kind: 'reset-mfa'; userId: number; reason: string }
  | { kind: 'resend-patient'; invitationId: number };

/** The administrator's actions on a person (PUT roles, POST deactivate/reactivate/unlock/reset-mfa/resend). */
export function runPersonAction(action: PersonAction): Promise<Person | null> {
  switch (action.kind) {
    case 'roles':
      return api.put<Person>(`/api/v1/admin/people/${action.userId}/roles/`, { roles: action.roles });
    case 'reset-mfa':
      return api.post<Person>(`/api/v1/admin/people/${action.userId}/reset-mfa/`, { reason: action.reason });
    case 'resend-patient':
      return api.post<null>(`/api/v1/admin/people/invitations/${action.invitationId}/resend/`);
    default:
      return api.post<Person>(`/api/v1/admin/people/${action.userId}/${action.kind}/`);
  }
}

export const usePersonAction = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: runPersonAction, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.people.all }) });
};

/** POST /api/v1/admin/people/staff/: 201 with the person invited. */
export const inviteStaff = (body: InviteStaffBody) => api.post<Person>('/api/v1/admin/people/staff/', body);

export const useInviteStaff = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: inviteStaff, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.people.all }) });
};
