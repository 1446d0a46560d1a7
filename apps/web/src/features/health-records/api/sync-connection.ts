import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SourceConnection } from '@healthbook/shared/contracts/sources';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/sources/connections/{id}/sync/: a full sync now (409 when the connection needs reconnecting). */
export const syncConnection = (id: number) => api.post<SourceConnection>(`/api/v1/sources/connections/${id}/sync/`, {});

/** The connections are read again (the sync's progress then follows by polling). */
export function useSyncConnection() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: syncConnection, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sources.all }) });
}
