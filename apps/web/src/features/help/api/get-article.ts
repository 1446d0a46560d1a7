import { queryOptions, useQuery } from '@tanstack/react-query';
import type { HelpArticle } from '@healthbook/shared/contracts/help';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/help/articles/{slug}/: one article in the reader's language (404: not this organisation's). */
export const getArticle = (slug: string) => api.get<HelpArticle>(`/api/v1/help/articles/${encodeURIComponent(slug)}/`);

export const articleQueryOptions = (slug: string, language: string) =>
  queryOptions({ queryKey: queryKeys.help.article(slug, language), queryFn: () => getArticle(slug), staleTime: 60_000, retry: false });

export const useArticle = (slug: string, language: string) => useQuery(articleQueryOptions(slug, language));
