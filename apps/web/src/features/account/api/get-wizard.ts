import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Wizard } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /api/v1/wizard/: the first-run wizard's status and steps. */
export const getWizard = () => api.get<Wizard>('/api/v1/wizard/');

/** Step titles come from the server in the chosen language: the language is part of the key. */
export const wizardQueryOptions = (language: string) => queryOptions({ queryKey: queryKeys.wizard.forLanguage(language), queryFn: getWizard });

export const useWizard = (language: string) => useQuery(wizardQueryOptions(language));
