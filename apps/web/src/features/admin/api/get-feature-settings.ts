import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeatureSetting } from '@healthbook/shared/contracts/features';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/features/?organization_id=: what the organisation chose for each feature, and what members get (administrators). */
export const getFeatureSettings = (organizationId: number) =>
  api.get<FeatureSetting[]>(`/api/v1/features/?organization_id=${organizationId}`);

export const featureSettingsQueryOptions = (organizationId: number, language: string) =>
  queryOptions({ queryKey: queryKeys.features.settings(organizationId, language), queryFn: () => getFeatureSettings(organizationId) });

export const useFeatureSettings = (organizationId: number, language: string) => useQuery(featureSettingsQueryOptions(organizationId, language));
