import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Provider, ProviderProfileBody } from '@healthbook/shared/contracts/appointments';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** PUT /api/v1/provider/me/profile/: speciality, credentials, languages, biography. */
export const saveProfile = (body: ProviderProfileBody) => api.put<Provider>('/api/v1/provider/me/profile/', body);

export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveProfile,
    onSuccess: (provider) => {
      queryClient.setQueryData(queryKeys.providerConsole.profile(), provider);
      return queryClient.invalidateQueries({ queryKey: queryKeys.telehealth.all });
    },
  });
}
