import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeatureEntry } from '@healthbook/shared/contracts/features';
import type { FeatureStatus } from '@healthbook/shared/features';
import { api } from './api-client';
import { queryKeys } from './query-keys';

/**
 * The hub's features as the signed-in member gets them (POST /api/v1/features/get-features/):
 * read by the shell (menu, app bar), the route guard of each feature's pages and the dashboard.
 * A change by an administrator shows on the member's next page load.
 */
export const getFeatures = (organizationId: number) =>
  api.post<FeatureEntry[]>('/api/v1/features/get-features/', { organization_id: organizationId });

export const featuresQueryOptions = (organizationId: number, language: string) =>
  queryOptions({
    queryKey: queryKeys.features.forOrganization(organizationId, language),
    queryFn: () => getFeatures(organizationId),
    staleTime: 30_000,
  });

export interface HubFeatures {
  entries: FeatureEntry[];
  /** What the member gets of a feature: unknown keys (a super-admin-only one, for others) count as disabled. */
  status(key: string): FeatureStatus;
  entry(key: string): FeatureEntry | undefined;
}

export function hubFeatures(entries: FeatureEntry[]): HubFeatures {
  const byKey = new Map(entries.map((e) => [e.key, e]));
  return {
    entries,
    status: (key) => byKey.get(key)?.feature_status ?? 'disabled',
    entry: (key) => byKey.get(key),
  };
}

const NONE = hubFeatures([]);

/** The member's features (loaded by the signed-in guard, so there from the first render). */
export function useHubFeatures(organizationId: number, language: string): HubFeatures {
  const { data } = useQuery({ ...featuresQueryOptions(organizationId, language), select: hubFeatures });
  return data ?? NONE;
}

/**
 * POST /api/v1/operationsdashboard/save_operations/: a member opened a feature from the menu.
 * Fire and forget; a failure is only logged (the spec: feature calls fail quietly).
 */
export function saveOperation(organizationId: number, featureId: number): void {
  api.post('/api/v1/operationsdashboard/save_operations/', { organization_id: organizationId, feature_id: featureId }).catch((error: unknown) => {
    console.info('operation not saved', error);
  });
}
