import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CopyRecordsBody, CopyRecordsResult } from '@healthbook/shared/contracts/connection-hub';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/connection-hub/links/{id}/copy/: records of chosen categories, one way or the other. */
export const copyRecords = ({ id, body }: { id: number; body: CopyRecordsBody }) => api.post<CopyRecordsResult>(`/api/v1/connection-hub/links/${id}/copy/`, body);

export function useCopyRecords() {
  const queryClient = useQueryClient();
  // Records may have come here: the health record's lists are read again.
  return useMutation({ mutationFn: copyRecords, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.records.all }) });
}
