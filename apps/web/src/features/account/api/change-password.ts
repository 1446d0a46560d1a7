import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@healthbook/shared/contracts/auth';
import { api } from '../../../lib/api-client';

/** PUT /api/v1/me/password/ {current_password, password}: 200 {detail}; 400 with field errors; 429 {detail} after too many wrong tries. */
export const changePassword = (body: ChangePasswordBody) => api.put<{ detail?: string } | null>('/api/v1/me/password/', body);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
