import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';
import { getOrganization, ORGANIZATION_STALE_MS } from './organization-cache';

export { getOrganization };

export const organizationQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.organizations.byName(clientId),
    queryFn: () => getOrganization(clientId),
    staleTime: ORGANIZATION_STALE_MS,
  });

export const useOrganization = (clientId: string) => useSuspenseQuery(organizationQueryOptions(clientId));
