import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrganizationSurveyDefinition } from '@healthbook/shared/contracts/surveys';
import type { OrganizationSurveyKey } from '@healthbook/shared/surveys';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/organizations/{id}/surveys/{survey}/ (administrators): its own set, or the default. */
export const getOrganizationSurvey = (organizationId: number, survey: OrganizationSurveyKey) =>
  api.get<OrganizationSurveyDefinition>(`/api/v1/organizations/${organizationId}/surveys/${survey}/`);
export const organizationSurveyQueryOptions = (organizationId: number, survey: OrganizationSurveyKey) =>
  queryOptions({ queryKey: queryKeys.surveys.editor(organizationId, survey), queryFn: () => getOrganizationSurvey(organizationId, survey) });
export const useOrganizationSurvey = (organizationId: number, survey: OrganizationSurveyKey) => useQuery(organizationSurveyQueryOptions(organizationId, survey));

/** PUT /api/v1/organizations/{id}/surveys/{survey}/: the whole set replaced (audited). */
export function useSaveOrganizationSurvey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, survey, body }: { organizationId: number; survey: OrganizationSurveyKey; body: OrganizationSurveyDefinition }) =>
      api.put<OrganizationSurveyDefinition>(`/api/v1/organizations/${organizationId}/surveys/${survey}/`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.surveys.all }),
  });
}
