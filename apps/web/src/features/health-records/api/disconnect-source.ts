import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface DisconnectSource {
  id: number;
  /** The records the provider brought are deleted too (default: they stay). */
  removeRecords: boolean;
}

/** DELETE /api/v1/sources/connections/{id}/?remove_records=: its tokens deleted; its records stay unless asked. */
export const disconnectSource = ({ id, removeRecords }: DisconnectSource) => api.delete<null>(`/api/v1/sources/connections/${id}/?remove_records=${removeRecords}`);

/** The connections, and the records (removed, or no longer synced), are read again. */
export function useDisconnectSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectSource,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.sources.all }), queryClient.invalidateQueries({ queryKey: queryKeys.records.all })]),
  });
}
