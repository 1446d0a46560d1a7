import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';
import type { OrganizationLookup } from '@healthbook/shared/contracts/organizations';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const getOrganization = (clientId: string) =>
  api.get<OrganizationLookup>(`/api/v1/organization_detail_by_name/${encodeURIComponent(clientId)}`);

export const organizationQueryOptions = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.organizations.byName(clientId),
    queryFn: () => getOrganization(clientId),
    staleTime: 5 * 60_000,
  });

export const useOrganization = (clientId: string) => useSuspenseQuery(organizationQueryOptions(clientId));
