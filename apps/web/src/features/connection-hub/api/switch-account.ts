import { useMutation } from '@tanstack/react-query';
import type { SwitchToken } from '@healthbook/shared/contracts/connection-hub';
import { api } from '../../../lib/api-client';
import { afterSignInPath, clearLocalData, signIn, type SignInAnswer } from '../../../lib/auth';

/**
 * Switches to a linked account: a single-use token (POST …/links/{id}/switch/), exchanged at
 * POST /api/v1/auth/linked/ for the other account's sign-in answer, stored exactly as sign-in
 * stores it (this browser holds one session: the one it leaves is ended by the server). Answers
 * where to go: the other organisation's dashboard, or its second-factor page when asked.
 */
export async function switchAccount(linkId: number): Promise<string> {
  const { token, client_id } = await api.post<SwitchToken>(`/api/v1/connection-hub/links/${linkId}/switch/`, {});
  const answer = await api.post<SignInAnswer>('/api/v1/auth/linked/', { token });
  clearLocalData();
  const claims = signIn(answer);
  return afterSignInPath(client_id, claims);
}

export const useSwitchAccount = () => useMutation({ mutationFn: switchAccount });
