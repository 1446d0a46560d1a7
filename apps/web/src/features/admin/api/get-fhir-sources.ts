import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FhirSource } from '@healthbook/shared/contracts/sources';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/admin/sources/?org_id=: the organisation's SMART on FHIR sources (its administrators; super admins any). */
export const getFhirSources = (organizationId: number) => api.get<FhirSource[]>(`/api/v1/admin/sources/?org_id=${organizationId}`);

export const fhirSourcesQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: queryKeys.sources.admin(organizationId), queryFn: () => getFhirSources(organizationId) });

export const useFhirSources = (organizationId: number) => useQuery(fhirSourcesQueryOptions(organizationId));
