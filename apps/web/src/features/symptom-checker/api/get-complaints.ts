import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SymptomComplaintList } from '@healthbook/shared/contracts/symptom-checker';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/symptom-checker/complaints/: the complaints and their red-flag questions, in the reader's language. */
export const getComplaints = () => api.get<SymptomComplaintList>('/api/v1/symptom-checker/complaints/');

export const complaintsQueryOptions = (language: string) =>
  queryOptions({ queryKey: queryKeys.symptomChecker.complaints(language), queryFn: getComplaints, staleTime: 60 * 60_000 });

export const useComplaints = (language: string) => useQuery(complaintsQueryOptions(language));
