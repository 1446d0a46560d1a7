import { useMutation } from '@tanstack/react-query';
import type { ClosingStarted } from '@healthbook/shared/contracts/account-closing';
import { api } from '../../../lib/api-client';
import type { IdentityProof } from '../../../lib/reauth';

/** POST /api/v1/me/closing/ with the password (or a code): 202 with the erasure date; every session of the account has ended. */
export const closeAccount = (proof: IdentityProof) => api.post<ClosingStarted>('/api/v1/me/closing/', proof);

export const useCloseAccount = () => useMutation({ mutationFn: closeAccount });
