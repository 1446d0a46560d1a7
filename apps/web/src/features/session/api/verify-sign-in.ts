import type { VerifyAnswer, VerifyBody } from '@healthbook/shared/contracts/auth';
import { api } from '../../../lib/api-client';

/** POST /api/v1/verify/ with the limited token: the user data with a full token pair. */
export const verifySignIn = (body: VerifyBody) => api.post<VerifyAnswer>('/api/v1/verify/', body);
