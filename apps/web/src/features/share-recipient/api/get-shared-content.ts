import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { SharedContent } from '@healthbook/shared/contracts/sharing';
import { queryKeys } from '../../../lib/query-keys';
import { shareRequest } from './share-fetch';

/**
 * GET /api/v1/sharing/public/content/ with X-Share-Session: the shared record as it is now,
 * labels and values in the reader's language. 401 the session is over; 410 revoked or expired.
 */
export const getSharedContent = (session: string, signal?: AbortSignal) => shareRequest<SharedContent>('/api/v1/sharing/public/content/', { session, signal });

export const sharedContentQueryOptions = (uid: string, session: string, language: string) =>
  queryOptions({
    queryKey: queryKeys.shareRecipient.content(uid, language),
    queryFn: ({ signal }) => getSharedContent(session, signal),
    // Live when opened, and each showing is logged for the patient: no background refetches.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    // Another language: the page stays as it is until the new labels arrive.
    placeholderData: keepPreviousData,
  });

export const useSharedContent = (uid: string, session: string, language: string) => useQuery(sharedContentQueryOptions(uid, session, language));
