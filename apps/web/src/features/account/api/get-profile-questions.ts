import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProfileQuestion } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/users/profile_questions/: the organisation's profile questions with the user's answers. */
export const getProfileQuestions = () => api.get<ProfileQuestion[]>('/api/v1/users/profile_questions/');

/** The questions come in the chosen language: the language is part of the key. */
export const profileQuestionsQueryOptions = (language: string) =>
  queryOptions({ queryKey: queryKeys.profileQuestions.forLanguage(language), queryFn: getProfileQuestions });

export const useProfileQuestions = (language: string) => useQuery(profileQuestionsQueryOptions(language));
