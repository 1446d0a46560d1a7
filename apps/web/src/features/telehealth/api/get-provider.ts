import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Provider } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/provider/{id}/: a provider's details and next free slot. */
export const getProvider = (id: number) => api.get<Provider>(`/api/v1/provider/${id}/`);

export const providerQueryOptions = (id: number) => queryOptions({ queryKey: queryKeys.telehealth.provider(id), queryFn: () => getProvider(id) });

export const useProvider = (id: number) => useQuery(providerQueryOptions(id));
