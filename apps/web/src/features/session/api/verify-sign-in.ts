import { useMutation } from '@tanstack/react-query';
import type { VerifyAnswer, VerifyBody } from '@healthbook/shared/contracts/auth';
import { api } from '../../../lib/api-client';
import { signIn } from '../../../lib/auth';

/** POST /api/v1/verify/ with the limited token: the user data with a full access token (the refresh token comes as a cookie). */
export const verifySignIn = (body: VerifyBody) => api.post<VerifyAnswer>('/api/v1/verify/', body);

/** The full session replaces the limited one: its access token and the whole user record. */
export const useVerifySignIn = () =>
  useMutation({
    mutationFn: verifySignIn,
    onSuccess: ({ access, refresh: _refresh, ...user }) => {
      if (access) signIn({ access, user });
    },
  });
