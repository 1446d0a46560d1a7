import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AccessLogPage } from '@healthbook/shared/contracts/care-network';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The server's page size of the access log. */
export const ACCESS_LOG_PAGE_SIZE = 50;

/** The reader's time zone: the days the server groups the lines by. */
const readerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** GET /api/v1/care-network/access-log/?page=&tz=: who saw my record, newest first, as sentences in the reader's language. */
export const getAccessLog = (page: number) => {
  const query = new URLSearchParams({ tz: readerZone() });
  if (page > 1) query.set('page', String(page));
  return api.get<AccessLogPage>(`/api/v1/care-network/access-log/?${query.toString()}`);
};

export const accessLogQueryOptions = (page: number, language: string) =>
  queryOptions({ queryKey: queryKeys.careNetwork.accessLog(page, language), queryFn: () => getAccessLog(page), placeholderData: keepPreviousData });

export const useAccessLog = (page: number, language: string) => useQuery(accessLogQueryOptions(page, language));
