import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SavedSymptomCheck, SymptomCheckInput } from '@healthbook/shared/contracts/symptom-checker';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/symptom-checker/save/: the check, assessed again by the server, saved as a symptom of your record. */
export const saveSymptomCheck = (input: SymptomCheckInput) => api.post<SavedSymptomCheck>('/api/v1/symptom-checker/save/', { input });

/** A saved check is a new symptom: the record's lists and summary are read again. */
export function useSaveSymptomCheck() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSymptomCheck,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.records.all }),
  });
}
