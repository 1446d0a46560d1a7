import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccountSetupCheckAnswer, AccountSetupLink } from '@healthbook/shared/contracts/account-setup';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/account_setup/check/: the account a live set-password link sets up; 400 unknown, 410 {reason: expired | used}. */
export const checkAccountSetupLink = (body: AccountSetupLink) => api.post<AccountSetupCheckAnswer>('/api/v1/account_setup/check/', body);

/** Asked once on arrival (it changes nothing); a refusal is an answer, not something to retry. */
export const accountSetupLinkQueryOptions = (body: AccountSetupLink) =>
  queryOptions({
    queryKey: queryKeys.users.accountSetupLink(body.uid, body.token),
    queryFn: () => checkAccountSetupLink(body),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export const useAccountSetupLink = (body: AccountSetupLink) => useQuery(accountSetupLinkQueryOptions(body));
