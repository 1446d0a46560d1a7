import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SurveySummary } from '@healthbook/shared/contracts/surveys';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/surveys/: every survey of the organisation with the patient's latest result. */
export const listSurveys = () => api.get<SurveySummary[]>('/api/v1/surveys/');

export const surveysQueryOptions = (language: string) => queryOptions({ queryKey: queryKeys.surveys.list(language), queryFn: listSurveys });

export const useSurveys = (language: string) => useQuery(surveysQueryOptions(language));
