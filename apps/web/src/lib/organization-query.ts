import { queryOptions } from '@tanstack/react-query';
import { getOrganization, ORGANIZATION_STALE_MS } from './organization-cache';
import { queryKeys } from './query-keys';

/** GET /api/v1/organization_detail_by_name/{clientId} as a query (the organisation's branding and settings). */
export const organizationQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.organizations.byName(clientId),
    queryFn: () => getOrganization(clientId),
    staleTime: ORGANIZATION_STALE_MS,
  });
