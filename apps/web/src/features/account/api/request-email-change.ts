import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import type { IdentityProof } from '../../../lib/reauth';

export type RequestEmailChangeBody = { email: string } & IdentityProof;

/**
 * POST /api/v1/me/email/ {email, password}: 202 {detail} — a link goes to the new address (60
 * minutes, once) and the sign-in address changes when it is opened. The same answer whether or
 * not the address is taken (the mail tells its owner).
 */
export const requestEmailChange = (body: RequestEmailChangeBody) => api.post<{ detail?: string } | null>('/api/v1/me/email/', body);

export const useRequestEmailChange = () => useMutation({ mutationFn: requestEmailChange });
