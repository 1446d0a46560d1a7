import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Wizard } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';

export type WizardStepName = Wizard['steps'][number]['model_name'];

export const getWizard = () => api.get<Wizard>('/api/v1/wizard/');

/** Step titles come from the server in the chosen language: the language is part of the key. */
export const wizardQueryOptions = (lang: string) => queryOptions({ queryKey: ['wizard', lang], queryFn: getWizard });

export const useWizard = (lang: string) => useQuery(wizardQueryOptions(lang));

/** POST /api/v1/wizard/ {model_name}: marks a step done; the answer is the wizard. */
export const completeWizardStep = async (modelName: WizardStepName): Promise<Wizard> => {
  const wizard = await api.post<Wizard>('/api/v1/wizard/', { model_name: modelName });
  await queryClient.invalidateQueries({ queryKey: ['wizard'] });
  return wizard;
};
