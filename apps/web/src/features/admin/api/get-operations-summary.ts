import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { OperationsSummary } from '@healthbook/shared/contracts/operations';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface OperationsPeriod {
  organizationId: number;
  /** YYYY-MM-DD, both included. */
  from: string;
  to: string;
  /** IANA time zone the days are counted in. */
  tz: string;
}

const query = ({ organizationId, from, to, tz }: OperationsPeriod) =>
  new URLSearchParams({ organization_id: String(organizationId), from, to, tz }).toString();

/** GET /api/v1/operationsdashboard/summary/ (super admins). */
export const getOperationsSummary = (period: OperationsPeriod) =>
  api.get<OperationsSummary>(`/api/v1/operationsdashboard/summary/?${query(period)}`);

/** GET /api/v1/operationsdashboard/export/: the same figures as CSV text. */
export const getOperationsCsv = (period: OperationsPeriod) =>
  api.get<string>(`/api/v1/operationsdashboard/export/?${query(period)}`, { headers: { Accept: 'text/csv' } });

export const operationsSummaryQueryOptions = (period: OperationsPeriod, language: string) =>
  queryOptions({
    queryKey: queryKeys.operations.summary(period.organizationId, period.from, period.to, period.tz, language),
    queryFn: () => getOperationsSummary(period),
    placeholderData: keepPreviousData,
  });

export const useOperationsSummary = (period: OperationsPeriod, language: string) => useQuery(operationsSummaryQueryOptions(period, language));
