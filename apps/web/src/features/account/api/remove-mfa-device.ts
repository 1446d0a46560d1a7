import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshUser } from '../../../lib/auth';
import type { IdentityProof } from '../../../lib/reauth';

export interface RemoveMfaDeviceInput {
  uuid: string;
  proof: IdentityProof;
}

/** DELETE /api/v1/mfa/{uuid} with the password (or a code) as its JSON body: 204. */
export const removeMfaDevice = ({ uuid, proof }: RemoveMfaDeviceInput) => api.delete<null>(`/api/v1/mfa/${encodeURIComponent(uuid)}`, { body: proof });

/** Then the user again: has_mfa_enabled follows the devices left (a failure there keeps the old copy). */
export const useRemoveMfaDevice = () =>
  useMutation({ mutationFn: removeMfaDevice, onSuccess: () => refreshUser().then(() => undefined, () => undefined) });
