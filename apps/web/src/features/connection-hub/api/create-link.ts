import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateLinkBody, LinkedAccount } from '@healthbook/shared/contracts/connection-hub';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/connection-hub/links/: signs in to the other account (its password, and its second-factor code when asked). */
export const createLink = (body: CreateLinkBody) => api.post<LinkedAccount>('/api/v1/connection-hub/links/', body);

export function useCreateLink() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createLink, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.connectionHub.all }) });
}
