import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrganizationDetail, OrganizationSettingsBody } from '@healthbook/shared/contracts/organizations';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UpdateOrganizationSettings {
  organizationId: number;
  /** Only the fields sent change. */
  settings: OrganizationSettingsBody;
}

/** PUT /api/v1/organizations/{id}/settings/ (administrators; audited). */
export const updateOrganizationSettings = ({ organizationId, settings }: UpdateOrganizationSettings) =>
  api.put<OrganizationDetail>(`/api/v1/organizations/${organizationId}/settings/`, settings);

/** The organisation's branding and settings are read again (the shell's Videos item and the help contacts follow). */
export function useUpdateOrganizationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrganizationSettings,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizations.all }),
  });
}
