import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedShare } from '@healthbook/shared/contracts/sharing';
import { api } from '../../../lib/api-client';
import { shareChanged } from './share-cache';

/**
 * POST /api/v1/sharing/{id}/reissue/: a new address (and passcode for a QR share); the old one
 * stops working and the wrong-attempt counter starts again, which opens a locked share.
 */
export const reissueShare = (id: number) => api.post<CreatedShare>(`/api/v1/sharing/${id}/reissue/`, {});

export function useReissueShare() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: reissueShare, onSuccess: (share) => shareChanged(queryClient, share) });
}
