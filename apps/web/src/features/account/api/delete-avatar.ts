import { useMutation } from '@tanstack/react-query';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { setUser } from '../../../lib/auth';

/** DELETE /api/v1/users/avatar/: the user without a picture. */
export const deleteAvatar = () => api.delete<UserDto>('/api/v1/users/avatar/');

export const useDeleteAvatar = () => useMutation({ mutationFn: deleteAvatar, onSuccess: setUser });
