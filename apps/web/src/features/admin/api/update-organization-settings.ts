import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UpdateOrganizationSettings {
  organizationId: number;
  videoChannelUrl: string | null;
}

/** PUT /api/v1/organizations/{id}/settings/ {video_channel_url} (administrators; audited). */
export const updateOrganizationSettings = ({ organizationId, videoChannelUrl }: UpdateOrganizationSettings) =>
  api.put<OrganizationDetail>(`/api/v1/organizations/${organizationId}/settings/`, { video_channel_url: videoChannelUrl });

/** The organisation's branding and settings are read again (the shell's Videos item follows). */
export function useUpdateOrganizationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganizationSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all }),
  });
}
