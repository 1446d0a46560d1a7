import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordPage } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The most records a page of the API holds: the single records offered are a category's first hundred. */
export const SHARE_PICK_PAGE_SIZE = 100;

/** GET /api/v1/hr/{category}/?page_size=100: a category's records to pick single ones from (private ones included, to be shown disabled). */
export const listCategoryRecords = (category: string) => api.get<RecordPage>(`/api/v1/hr/${category}/?page_size=${SHARE_PICK_PAGE_SIZE}`);

export const categoryRecordsQueryOptions = (category: string) =>
  queryOptions({ queryKey: queryKeys.records.list(category, { page_size: SHARE_PICK_PAGE_SIZE }), queryFn: () => listCategoryRecords(category) });

/** A category's records; nothing is asked while no category is given. */
export const useCategoryRecords = (category: string | null) => useQuery({ ...categoryRecordsQueryOptions(category ?? ''), enabled: Boolean(category) });
