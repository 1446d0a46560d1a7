import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PendingClosing } from '@healthbook/shared/contracts/account-closing';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/account_closings/?org=: the organisation's pending account closings (its administrators; super admins any). */
export const getAccountClosings = (orgId: number) => api.get<{ results: PendingClosing[] }>(`/api/v1/account_closings/?org=${orgId}`);

export const accountClosingsQueryOptions = (orgId: number) =>
  queryOptions({ queryKey: queryKeys.accountClosing.pending(orgId), queryFn: () => getAccountClosings(orgId) });

export const useAccountClosings = (orgId: number) => useQuery(accountClosingsQueryOptions(orgId));
