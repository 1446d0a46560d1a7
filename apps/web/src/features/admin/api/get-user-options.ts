import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserOptions } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/users/options/: the gender and sex choices, each {key, value} in the reader's language. */
export const getUserOptions = () => api.get<UserOptions>('/api/v1/users/options/');

export const userOptionsQueryOptions = (language: string) =>
  queryOptions({
    queryKey: queryKeys.users.options(language),
    queryFn: getUserOptions,
    staleTime: 60 * 60_000,
  });

export const useUserOptions = (language: string) => useQuery(userOptionsQueryOptions(language));
