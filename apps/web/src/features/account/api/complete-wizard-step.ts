import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Wizard, WizardStepName } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /api/v1/wizard/ {model_name}: marks a step done; the answer is the wizard. */
export const completeWizardStep = (modelName: WizardStepName) => api.post<Wizard>('/api/v1/wizard/', { model_name: modelName });

/** Marks a step done, quietly (a failure only leaves the step open), and refreshes the wizard in every language. */
export function useCompleteWizardStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: completeWizardStep,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.wizard.all }),
  });
}
