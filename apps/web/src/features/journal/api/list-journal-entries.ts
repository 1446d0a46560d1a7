import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { JournalPage } from '@healthbook/shared/contracts/journal';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface JournalListParams {
  search: string;
  tag: string;
  page: number;
}

export const JOURNAL_PAGE_SIZE = 20;

/** GET /api/v1/journal/?search=&tag=&page=: the entries, newest first. */
export const listJournalEntries = ({ search, tag, page }: JournalListParams) => {
  const q = new URLSearchParams({ page_size: String(JOURNAL_PAGE_SIZE) });
  if (search.trim()) q.set('search', search.trim());
  if (tag) q.set('tag', tag);
  if (page > 1) q.set('page', String(page));
  return api.get<JournalPage>(`/api/v1/journal/?${q.toString()}`);
};

export const journalEntriesQueryOptions = (params: JournalListParams) =>
  queryOptions({ queryKey: queryKeys.journal.list(params), queryFn: () => listJournalEntries(params), placeholderData: keepPreviousData });

export const useJournalEntries = (params: JournalListParams) => useQuery(journalEntriesQueryOptions(params));
