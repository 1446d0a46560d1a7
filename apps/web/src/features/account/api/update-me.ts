import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserBody, UserDto } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { setUser } from '../../../lib/auth';
import { queryKeys } from '../../../lib/query-keys';

/** PUT /api/v1/me/: user fields or settings; the answer is the updated user. */
export const updateMe = (body: UpdateUserBody) => api.put<UserDto>('/api/v1/me/', body);

/** The answer replaces the local copy of the user; the wizard follows the settings (minimized) and the profile. */
export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (user) => {
      setUser(user);
      return queryClient.invalidateQueries({ queryKey: queryKeys.wizard.all });
    },
  });
}
