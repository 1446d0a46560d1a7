import { useMutation } from '@tanstack/react-query';
import type { CreateInvitationBody, Invitation } from '@healthbook/shared/contracts/invitations';
import { api } from '../../../lib/api-client';

/** POST /api/v1/admin/invitations/: 201 with the invitation and its signup_code; 401/403 for a non-admin. */
export const createInvitation = (body: CreateInvitationBody) => api.post<Invitation>('/api/v1/admin/invitations/', body);

export const useCreateInvitation = () => useMutation({ mutationFn: createInvitation });
