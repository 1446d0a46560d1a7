import { useMutation } from '@tanstack/react-query';
import type { SymptomCheckInput, SymptomCheckResult } from '@healthbook/shared/contracts/symptom-checker';
import { api } from '../../../lib/api-client';

/** POST /api/v1/symptom-checker/assess/: the outcome of a check (nothing is stored). */
export const assessSymptoms = (input: SymptomCheckInput) => api.post<SymptomCheckResult>('/api/v1/symptom-checker/assess/', input);

export const useAssessSymptoms = () => useMutation({ mutationFn: assessSymptoms });
