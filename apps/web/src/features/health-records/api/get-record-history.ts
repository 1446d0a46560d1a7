import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordVersion } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/hr/{category}/{id}/history/: the versions, newest first. */
export const getRecordHistory = (category: string, id: number) => api.get<RecordVersion[]>(`/api/v1/hr/${category}/${id}/history/`);

export const recordHistoryQueryOptions = (category: string, id: number, language: string) =>
  queryOptions({ queryKey: queryKeys.records.history(category, id, language), queryFn: () => getRecordHistory(category, id) });

export const useRecordHistory = (category: string, id: number, language: string, enabled = true) => useQuery({ ...recordHistoryQueryOptions(category, id, language), enabled });
