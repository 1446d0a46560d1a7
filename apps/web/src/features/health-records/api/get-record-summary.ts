import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RecordSummary } from '@healthbook/shared/contracts/records';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/hr/summary/: counts and latest dates per category, and the records changed last. */
export const getRecordSummary = (patient: number | null) => api.get<RecordSummary>(`/api/v1/hr/summary/${patient ? `?patient=${patient}` : ''}`);

export const recordSummaryQueryOptions = (patient: number | null, language: string) =>
  queryOptions({ queryKey: queryKeys.records.summary(patient, language), queryFn: () => getRecordSummary(patient) });

export const useRecordSummary = (patient: number | null, language: string) => useQuery(recordSummaryQueryOptions(patient, language));
