import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AccessLogPage } from '@healthbook/shared/contracts/care-network';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The server's page size of the access log. */
export const ACCESS_LOG_PAGE_SIZE = 50;

/** GET /api/v1/care-network/access-log/?page=: who saw my record, newest first (details in the reader's language). */
export const getAccessLog = (page: number) => api.get<AccessLogPage>(`/api/v1/care-network/access-log/${page > 1 ? `?page=${page}` : ''}`);

export const accessLogQueryOptions = (page: number, language: string) =>
  queryOptions({ queryKey: queryKeys.careNetwork.accessLog(page, language), queryFn: () => getAccessLog(page), placeholderData: keepPreviousData });

export const useAccessLog = (page: number, language: string) => useQuery(accessLogQueryOptions(page, language));
