import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface SaveRecord {
  category: string;
  /** Absent: a new record (POST); present: the record replaced (PUT). */
  id?: number;
  values: Record<string, unknown>;
}

/** POST /api/v1/hr/{category}/ or PUT /api/v1/hr/{category}/{id}/ */
export const saveRecord = ({ category, id, values }: SaveRecord) =>
  id === undefined ? api.post<HealthRecord>(`/api/v1/hr/${category}/`, values) : api.put<HealthRecord>(`/api/v1/hr/${category}/${id}/`, values);

/** Saving changes the lists, the summary, the record and its history: all read again; and the checklist (a first record ticks its step). */
export function useSaveRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveRecord,
    onSuccess: (record) => {
      queryClient.setQueryData(queryKeys.records.detail(record.record_type, record.id), record);
      return Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.records.all }), queryClient.invalidateQueries({ queryKey: queryKeys.wizard.all })]);
    },
  });
}
