import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreatedShare, CreateShareBody } from '@healthbook/shared/contracts/sharing';
import { api } from '../../../lib/api-client';
import { shareChanged } from './share-cache';

/** POST /api/v1/sharing/: answers the share with its address (and the QR passcode), shown once. */
export const createShare = (body: CreateShareBody) => api.post<CreatedShare>('/api/v1/sharing/', body);

export function useCreateShare() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createShare, onSuccess: (share) => shareChanged(queryClient, share) });
}
