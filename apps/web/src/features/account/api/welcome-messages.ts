import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { WelcomeMessageSchema } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';

export type WelcomeMessage = z.infer<typeof WelcomeMessageSchema>;

/** GET /api/v1/users/get_welcome_messages/{id}: the welcome messages of the user's organisation ({id}: the user's own id). */
export const getWelcomeMessages = (userId: number) => api.get<WelcomeMessage[]>(`/api/v1/users/get_welcome_messages/${userId}`);

/** Messages come in the chosen language: the language is part of the key. */
export const welcomeMessagesQueryOptions = (userId: number, lang: string) =>
  queryOptions({ queryKey: ['welcome-messages', userId, lang], queryFn: () => getWelcomeMessages(userId), staleTime: 10 * 60_000 });

export const useWelcomeMessages = (userId: number, lang: string) => useQuery(welcomeMessagesQueryOptions(userId, lang));
