import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/organization_detail/: every organisation (a super admin chooses one to manage). */
export const getOrganizations = () => api.get<OrganizationDetail[]>('/api/v1/organization_detail/');

export const organizationsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.organizations.list(), queryFn: getOrganizations, staleTime: 5 * 60_000 });

export const useOrganizations = (enabled = true) => useQuery({ ...organizationsQueryOptions(), enabled });
