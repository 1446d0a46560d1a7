import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ShareLinkBody, ShareOpening } from '@healthbook/shared/contracts/sharing';
import { queryKeys } from '../../../lib/query-keys';
import { shareRequest } from './share-fetch';

/**
 * POST /api/v1/sharing/public/open/ {uid, token}: who shared, with whom, until when (nothing of
 * the record). 404 unknown or malformed; 410 {reason: expired | revoked | locked}.
 */
export const openShare = (link: ShareLinkBody) => shareRequest<ShareOpening>('/api/v1/sharing/public/open/', { method: 'POST', body: link });

export const openShareQueryOptions = (link: ShareLinkBody) =>
  queryOptions({
    queryKey: queryKeys.shareRecipient.opening(link.uid),
    queryFn: () => openShare(link),
    // A 4xx is the answer (gone, unknown); the page asks again when it is opened again.
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

export const useOpenShare = (link: ShareLinkBody) => useQuery(openShareQueryOptions(link));
