import { useMutation } from '@tanstack/react-query';
import type { InvitationDetails, ValidateCodeBody } from '@healthbook/shared/contracts/invitations';
import { api } from '../../../lib/api-client';

/** POST /api/v1/users/validate/: the invitation behind an access code (400/404 when there is none). */
export const validateSignupCode = (body: ValidateCodeBody) => api.post<InvitationDetails>('/api/v1/users/validate/', body);

export const useValidateSignupCode = () => useMutation({ mutationFn: validateSignupCode });
