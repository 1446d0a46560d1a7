import type { UserDto } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { setUser } from '../../../lib/auth';

/** POST /api/v1/users/avatar/ (multipart field 'file'): the user with the new picture. */
export const uploadAvatar = async (file: File): Promise<UserDto> => {
  const form = new FormData();
  form.append('file', file);
  const user = await api.post<UserDto>('/api/v1/users/avatar/', form);
  setUser(user);
  return user;
};

/** DELETE /api/v1/users/avatar/: the user without a picture. */
export const deleteAvatar = async (): Promise<UserDto> => {
  const user = await api.delete<UserDto>('/api/v1/users/avatar/');
  setUser(user);
  return user;
};
