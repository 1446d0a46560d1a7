import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { api } from './api-client';
import { getOrganization, ORGANIZATION_STALE_MS } from './organization-cache';
import { queryKeys } from './query-keys';

/** GET /api/v1/organization_detail_by_name/{clientId} as a query (the organisation's branding and settings). */
export const organizationQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.organizations.byName(clientId),
    queryFn: () => getOrganization(clientId),
    staleTime: ORGANIZATION_STALE_MS,
  });

/** GET /api/v1/organization_detail/: every organisation, public (names, client ids, branding). */
export const getOrganizations = () => api.get<OrganizationDetail[]>('/api/v1/organization_detail/');

export const organizationsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.organizations.list(), queryFn: getOrganizations, staleTime: 5 * 60_000 });

export const useOrganizations = (enabled = true) => useQuery({ ...organizationsQueryOptions(), enabled });
