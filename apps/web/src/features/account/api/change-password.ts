import type { ChangePasswordBody } from '@healthbook/shared/contracts/auth';
import { api } from '../../../lib/api-client';

/** PUT /api/v1/me/password/: 200 {detail}; 400 with field errors. */
export const changePassword = (body: ChangePasswordBody) => api.put<{ detail: string }>('/api/v1/me/password/', body);
