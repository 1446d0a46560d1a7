import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FeatureSetting } from '@healthbook/shared/contracts/features';
import type { FeatureStatus } from '@healthbook/shared/features';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UpdateFeatureStatus {
  featureId: number;
  organizationId: number;
  status: FeatureStatus;
}

/** PUT /api/v1/features/{id}/ {organization_id, feature_status} (administrators; audited). */
export const updateFeatureStatus = ({ featureId, organizationId, status }: UpdateFeatureStatus) =>
  api.put<FeatureSetting>(`/api/v1/features/${featureId}/`, { organization_id: organizationId, feature_status: status });

/** Every view of the features (the settings, and the administrator's own menu) is read again. */
export function useUpdateFeatureStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFeatureStatus,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.features.all }),
  });
}
