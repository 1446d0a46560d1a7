import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SurveyResult } from '@healthbook/shared/contracts/surveys';
import type { SurveyKey } from '@healthbook/shared/surveys';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/surveys/responses/[?survey=]: the patient's results, newest first. */
export const listSurveyResults = (survey: SurveyKey | null) =>
  api.get<SurveyResult[]>(`/api/v1/surveys/responses/${survey ? `?survey=${encodeURIComponent(survey)}` : ''}`);

export const surveyResultsQueryOptions = (survey: SurveyKey | null, language: string) =>
  queryOptions({ queryKey: queryKeys.surveys.results(survey, language), queryFn: () => listSurveyResults(survey) });

export const useSurveyResults = (survey: SurveyKey | null, language: string, enabled = true) =>
  useQuery({ ...surveyResultsQueryOptions(survey, language), enabled });
