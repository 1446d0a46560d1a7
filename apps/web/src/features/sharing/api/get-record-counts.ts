import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordSummary } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/hr/summary/: how many records each category holds (the categories to choose from). */
export const getRecordCounts = () => api.get<RecordSummary>('/api/v1/hr/summary/');

export const recordCountsQueryOptions = (language: string) =>
  queryOptions({ queryKey: queryKeys.records.summary(null, language), queryFn: getRecordCounts });

export const useRecordCounts = (language: string) => useQuery(recordCountsQueryOptions(language));
