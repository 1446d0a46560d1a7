import { queryOptions, useQuery } from '@tanstack/react-query';
import type { WelcomeMessage } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/users/get_welcome_messages/{id}: the welcome messages of the user's organisation ({id}: the user's own id). */
export const getWelcomeMessages = (userId: number) => api.get<WelcomeMessage[]>(`/api/v1/users/get_welcome_messages/${userId}`);

/** Messages come in the chosen language: the language is part of the key. */
export const welcomeMessagesQueryOptions = (userId: number, language: string) =>
  queryOptions({ queryKey: queryKeys.welcomeMessages.forUser(userId, language), queryFn: () => getWelcomeMessages(userId), staleTime: 10 * 60_000 });

export const useWelcomeMessages = (userId: number, language: string) => useQuery(welcomeMessagesQueryOptions(userId, language));
