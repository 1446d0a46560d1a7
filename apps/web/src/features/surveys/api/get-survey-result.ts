import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SurveyResult } from '@healthbook/shared/contracts/surveys';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/surveys/responses/{id}/: one kept result with its answers. */
export const getSurveyResult = (id: number) => api.get<SurveyResult>(`/api/v1/surveys/responses/${id}/`);

export const surveyResultQueryOptions = (id: number, language: string) =>
  queryOptions({ queryKey: queryKeys.surveys.result(id, language), queryFn: () => getSurveyResult(id) });

export const useSurveyResult = (id: number | null, language: string) =>
  useQuery({ ...surveyResultQueryOptions(id ?? 0, language), enabled: id !== null });
