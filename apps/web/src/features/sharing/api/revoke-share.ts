import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Share } from '@healthbook/shared/contracts/sharing';
import { api } from '../../../lib/api-client';
import { shareChanged } from './share-cache';

/** POST /api/v1/sharing/{id}/revoke/: the share stops working at once (idempotent). */
export const revokeShare = (id: number) => api.post<Share>(`/api/v1/sharing/${id}/revoke/`, {});

export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeShare, onSuccess: (share) => shareChanged(queryClient, share) });
}
