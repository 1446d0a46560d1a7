import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ONE_TIME } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface ConfirmEmailBody {
  uid: string;
  token: string;
}

/** POST /api/v1/users/confirm_email/: answers {detail} on success, 400 {detail} for a bad or expired link. */
export const confirmEmail = (body: ConfirmEmailBody) => api.post<{ detail?: string } | null>('/api/v1/users/confirm_email/', body);

/**
 * Run once per link and kept: a confirmation link works once, so neither a remount (StrictMode,
 * coming back to the page) nor a retry may send it again.
 */
export const confirmEmailQueryOptions = (body: ConfirmEmailBody) =>
  queryOptions({
    queryKey: queryKeys.users.emailConfirmation(body.uid, body.token),
    queryFn: () => confirmEmail(body),
    ...ONE_TIME,
  });

export const useConfirmEmail = (body: ConfirmEmailBody) => useQuery(confirmEmailQueryOptions(body));
