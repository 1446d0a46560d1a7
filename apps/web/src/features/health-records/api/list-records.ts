import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordPage } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface RecordListParams {
  page?: number;
  page_size?: number;
  ordering?: string;
  search?: string;
  date_from?: string;
  date_to?: string;
  patient?: number;
}

const queryString = (params: RecordListParams) => {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') q.set(key, String(value));
  const text = q.toString();
  return text ? `?${text}` : '';
};

/** GET /api/v1/hr/{category}/: a page of a category's records. */
export const listRecords = (category: string, params: RecordListParams) => api.get<RecordPage>(`/api/v1/hr/${category}/${queryString(params)}`);

export const recordListQueryOptions = (category: string, params: RecordListParams) =>
  queryOptions({
    queryKey: queryKeys.records.list(category, { ...params }),
    queryFn: () => listRecords(category, params),
    placeholderData: keepPreviousData,
  });

export const useRecordList = (category: string, params: RecordListParams) => useQuery(recordListQueryOptions(category, params));
