import type { UserDto } from '@healthbook/shared/contracts/users';
import { useCurrentUser } from '../../../lib/auth';

/** The user on a page of the signed-in layout, which renders its pages only with one. */
export function useSignedInUser(): UserDto {
  const user = useCurrentUser();
  if (!user) throw new Error('A signed-in page rendered without a user');
  return user;
}
