import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/provider/specialities/: the specialities of the organisation's providers. */
export const getSpecialities = () => api.get<string[]>('/api/v1/provider/specialities/');

export const specialitiesQueryOptions = () => queryOptions({ queryKey: queryKeys.telehealth.specialities(), queryFn: getSpecialities, staleTime: 60_000 });

export const useSpecialities = () => useQuery(specialitiesQueryOptions());
