import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProviderSchedule } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/provider/me/schedule/: the provider's weekly hours, exceptions and open slots. */
export const getSchedule = () => api.get<ProviderSchedule>('/api/v1/provider/me/schedule/');

export const scheduleQueryOptions = () => queryOptions({ queryKey: queryKeys.providerConsole.schedule(), queryFn: getSchedule });

export const useSchedule = () => useQuery(scheduleQueryOptions());
