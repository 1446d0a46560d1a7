import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { HelpArticleList } from '@healthbook/shared/contracts/help';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/help/articles/?search=: the organisation's help articles, or the matches of a search (best first). */
export const listArticles = (search: string) => api.get<HelpArticleList>(`/api/v1/help/articles/${search ? `?search=${encodeURIComponent(search)}` : ''}`);

export const articlesQueryOptions = (search: string, language: string) =>
  queryOptions({ queryKey: queryKeys.help.articles(search, language), queryFn: () => listArticles(search), placeholderData: keepPreviousData, staleTime: 60_000 });

export const useArticles = (search: string, language: string) => useQuery(articlesQueryOptions(search, language));
