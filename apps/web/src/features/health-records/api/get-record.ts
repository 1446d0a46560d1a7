import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/hr/{category}/{id}/ */
export const getRecord = (category: string, id: number) => api.get<HealthRecord>(`/api/v1/hr/${category}/${id}/`);

export const recordQueryOptions = (category: string, id: number) => queryOptions({ queryKey: queryKeys.records.detail(category, id), queryFn: () => getRecord(category, id) });

export const useRecord = (category: string, id: number) => useQuery(recordQueryOptions(category, id));
