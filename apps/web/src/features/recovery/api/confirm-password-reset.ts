import { useMutation } from '@tanstack/react-query';
import type { ResetPasswordConfirmBody } from '@healthbook/shared/contracts/auth';
import { api } from '../../../lib/api-client';

/** POST /api/v1/reset_password/confirm/: 200 {detail} when the password is set; 400 {detail} or {password: [...]}. */
export const confirmPasswordReset = (body: ResetPasswordConfirmBody) =>
  api.post<{ detail?: string } | null>('/api/v1/reset_password/confirm/', body);

export const useConfirmPasswordReset = () => useMutation({ mutationFn: confirmPasswordReset });
