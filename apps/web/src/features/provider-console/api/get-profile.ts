import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Provider } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/provider/me/profile/: the provider as patients see it. */
export const getProfile = () => api.get<Provider>('/api/v1/provider/me/profile/');

export const profileQueryOptions = () => queryOptions({ queryKey: queryKeys.providerConsole.profile(), queryFn: getProfile });

export const useProfile = () => useQuery(profileQueryOptions());
