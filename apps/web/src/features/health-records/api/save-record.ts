import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface SaveRecord {
  category: string;
  /** Absent: a new record (POST); present: the record replaced (PUT). */
  id?: number;
  values: Record<string, unknown>;
  /** Only the fields given change (PATCH): a record a connected source brought, of which only the note and the private mark may. */
  partial?: boolean;
}

/** POST /api/v1/hr/{category}/, PUT /api/v1/hr/{category}/{id}/ or (partial) PATCH it. */
export const saveRecord = ({ category, id, values, partial = false }: SaveRecord) =>
  id === undefined
    ? api.post<HealthRecord>(`/api/v1/hr/${category}/`, values)
    : partial
      ? api.patch<HealthRecord>(`/api/v1/hr/${category}/${id}/`, values)
      : api.put<HealthRecord>(`/api/v1/hr/${category}/${id}/`, values);

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
