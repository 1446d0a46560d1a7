import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordPage } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/hr/{category}/: the records a document may be attached to (the latest hundred changed). */
const params = { page_size: 100, ordering: '-updated_at' } as const;
export const recordsToAttachQueryOptions = (category: string) =>
  queryOptions({ queryKey: queryKeys.records.list(category, { ...params }), queryFn: () => api.get<RecordPage>(`/api/v1/hr/${category}/?page_size=100&ordering=-updated_at`) });
export const useRecordsToAttach = (category: string | null) => useQuery({ ...recordsToAttachQueryOptions(category ?? ''), enabled: category !== null });
