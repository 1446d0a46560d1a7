import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { ONE_TIME } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';

export interface ConfirmEmailChangeBody {
  uid: string;
  token: string;
}

/** POST /api/v1/users/confirm_email_change/ (no sign-in needed): 200 {detail} when the address is changed; 400 {detail} for a bad, used or expired link. */
export const confirmEmailChange = (body: ConfirmEmailChangeBody) =>
  api.post<{ detail?: string } | null>('/api/v1/users/confirm_email_change/', body);

/** Run once per link and kept: the link works once, so neither a remount nor a retry may send it again. */
export const confirmEmailChangeQueryOptions = (body: ConfirmEmailChangeBody) =>
  queryOptions({
    queryKey: queryKeys.users.emailChangeConfirmation(body.uid, body.token),
    queryFn: () => confirmEmailChange(body),
    ...ONE_TIME,
  });

export const useConfirmEmailChange = (body: ConfirmEmailChangeBody) => useQuery(confirmEmailChangeQueryOptions(body));
