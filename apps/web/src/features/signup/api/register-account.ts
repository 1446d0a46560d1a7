import { useMutation } from '@tanstack/react-query';
import type { RegisterBody } from '@healthbook/shared/contracts/invitations';
import { api } from '../../../lib/api-client';

/** POST /api/v1/users/register/: 201 when the account is created (it still needs its e-mail confirmed). */
export const registerAccount = (body: RegisterBody) => api.post<unknown>('/api/v1/users/register/', body);

export const useRegisterAccount = () => useMutation({ mutationFn: registerAccount });
