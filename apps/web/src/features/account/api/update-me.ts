import type { UpdateUserBody, UserDto } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { setUser } from '../../../lib/auth';

/** PUT /api/v1/me/: user fields or settings; the answer replaces the local copy of the user. */
export const updateMe = async (body: UpdateUserBody): Promise<UserDto> => {
  const user = await api.put<UserDto>('/api/v1/me/', body);
  setUser(user);
  return user;
};
