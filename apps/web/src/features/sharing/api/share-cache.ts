import type { QueryClient } from '@tanstack/react-query';
import type { CreatedShare, Share } from '@healthbook/shared/contracts/sharing';
import { queryKeys } from '../../../lib/query-keys';

/** The share as it is kept: what is shown once (its address, its passcode, its SMART Health Link) stays out of the cache. */
export function withoutSecrets(share: Share | CreatedShare): Share {
  const { url: _url, passcode: _passcode, smart_health_link: _shlink, ...rest } = share as CreatedShare;
  return rest;
}

/** A share changed (made, revoked, issued again): its page knows at once, and every list and log is read again. */
export function shareChanged(queryClient: QueryClient, share: Share | CreatedShare) {
  queryClient.setQueryData(queryKeys.shares.detail(share.id), withoutSecrets(share));
  return queryClient.invalidateQueries({ queryKey: queryKeys.shares.all });
}
