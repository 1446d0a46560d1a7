import { useMutation } from '@tanstack/react-query';
import type { ForgotPasswordBody } from '@healthbook/shared/contracts/auth';
import { api } from '../../../lib/api-client';

/** POST /api/v1/reset_password/: 200 means the instructions were sent. */
export const requestPasswordReset = (body: ForgotPasswordBody) => api.post<{ detail?: string } | null>('/api/v1/reset_password/', body);

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
