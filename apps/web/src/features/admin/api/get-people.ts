import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PeoplePage } from '@healthbook/shared/contracts/people';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface PeopleParams {
  /** A super admin's chosen organisation (default: their own). */
  org?: number | undefined;
  search: string;
  kind: 'all' | 'patients' | 'staff';
  /** 1-based. */
  page: number;
  pageSize: number;
}

/** GET /api/v1/admin/people/: the organisation's accounts and pending invitations, a page at a time. */
export const getPeople = (params: PeopleParams) => {
  const query = new URLSearchParams({ page: String(params.page), page_size: String(params.pageSize), kind: params.kind });
  if (params.search.trim()) query.set('search', params.search.trim());
  if (params.org !== undefined) query.set('org_id', String(params.org));
  return api.get<PeoplePage>(`/api/v1/admin/people/?${query.toString()}`);
};

export const peopleQueryOptions = (params: PeopleParams, language: string) =>
  queryOptions({ queryKey: queryKeys.people.list(params, language), queryFn: () => getPeople(params), placeholderData: keepPreviousData });

export const usePeople = (params: PeopleParams, language: string) => useQuery(peopleQueryOptions(params, language));
