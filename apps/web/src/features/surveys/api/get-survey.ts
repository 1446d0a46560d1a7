import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SurveyDto } from '@healthbook/shared/contracts/surveys';
import type { SurveyKey } from '@healthbook/shared/surveys';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/surveys/{key}/: its instructions, questions and answers, in the request language. */
export const getSurvey = (key: SurveyKey) => api.get<SurveyDto>(`/api/v1/surveys/${key}/`);

export const surveyQueryOptions = (key: SurveyKey, language: string) =>
  queryOptions({ queryKey: queryKeys.surveys.detail(key, language), queryFn: () => getSurvey(key), staleTime: 5 * 60_000 });

export const useSurvey = (key: SurveyKey, language: string) => useQuery(surveyQueryOptions(key, language));
