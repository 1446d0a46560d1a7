import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** DELETE /api/v1/hr/{category}/{id}/ (its attachments go with it). */
export const deleteRecord = ({ category, id }: { category: string; id: number }) => api.delete<null>(`/api/v1/hr/${category}/${id}/`);

export function useDeleteRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRecord,
    onSuccess: (_data, { category, id }) => {
      queryClient.removeQueries({ queryKey: queryKeys.records.detail(category, id) });
      return Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.records.all }), queryClient.invalidateQueries({ queryKey: queryKeys.documents.all })]);
    },
  });
}
