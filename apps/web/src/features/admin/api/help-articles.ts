import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminHelpArticle, SaveHelpArticleBody } from '@healthbook/shared/contracts/help';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/organizations/{id}/help/articles/ (editors): each article in both languages. */
export const getHelpArticles = (organizationId: number) => api.get<AdminHelpArticle[]>(`/api/v1/organizations/${organizationId}/help/articles/`);
export const helpArticlesQueryOptions = (organizationId: number) =>
  queryOptions({ queryKey: queryKeys.help.editor(organizationId), queryFn: () => getHelpArticles(organizationId) });
export const useHelpArticles = (organizationId: number) => useQuery(helpArticlesQueryOptions(organizationId));

/** The editors' list and the members' help area are read again. */
function useHelpMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.help.all }) });
}

/** PUT /api/v1/organizations/{id}/help/articles/{slug}/ */
export const useSaveHelpArticle = () =>
  useHelpMutation(({ organizationId, slug, body }: { organizationId: number; slug: string; body: SaveHelpArticleBody }) =>
    api.put<AdminHelpArticle>(`/api/v1/organizations/${organizationId}/help/articles/${encodeURIComponent(slug)}/`, body),
  );

/** DELETE /api/v1/organizations/{id}/help/articles/{slug}/: the organisation's own version goes. */
export const useRemoveHelpArticle = () =>
  useHelpMutation(({ organizationId, slug }: { organizationId: number; slug: string }) =>
    api.delete<null>(`/api/v1/organizations/${organizationId}/help/articles/${encodeURIComponent(slug)}/`),
  );
