import { useMutation } from '@tanstack/react-query';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { setUser } from '../../../lib/auth';

/** POST /api/v1/users/avatar/ (multipart field 'file'): the user with the new picture. */
export const uploadAvatar = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return api.post<UserDto>('/api/v1/users/avatar/', form);
};

export const useUploadAvatar = () => useMutation({ mutationFn: uploadAvatar, onSuccess: setUser });
