import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Provider } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface ProviderListParams {
  /** Exact speciality; none: every provider. */
  speciality?: string | undefined;
  /** YYYY-MM-DD: only providers with a free slot that day (in tz). */
  date?: string | undefined;
  tz: string;
}

const queryString = (params: ProviderListParams) => {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) q.set(key, value);
  return q.toString();
};

/** GET /api/v1/provider/list/?speciality=&date=&tz=: providers, each with its next free slot. */
export const listProviders = (params: ProviderListParams) => api.get<Provider[]>(`/api/v1/provider/list/?${queryString(params)}`);

export const providersQueryOptions = (params: ProviderListParams) =>
  queryOptions({
    queryKey: queryKeys.telehealth.providers({ ...params }),
    queryFn: () => listProviders(params),
    placeholderData: keepPreviousData,
  });

export const useProviders = (params: ProviderListParams) => useQuery(providersQueryOptions(params));
