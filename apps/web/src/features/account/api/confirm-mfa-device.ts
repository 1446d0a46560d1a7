import { useMutation } from '@tanstack/react-query';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { api } from '../../../lib/api-client';
import { setUser } from '../../../lib/auth';
import { useCompleteWizardStep } from './complete-wizard-step';

/** POST /api/v1/verify/ with the full token and the code: the device is enabled; the answer is the user, now with has_mfa_enabled. */
export const confirmMfaDevice = (code: string) => api.post<UserDto>('/api/v1/verify/', { code });

/** Keeps the new user copy and marks the wizard's second-factor step done. */
export function useConfirmMfaDevice() {
  const completeStep = useCompleteWizardStep();
  return useMutation({
    mutationFn: confirmMfaDevice,
    onSuccess: (user) => {
      setUser(user);
      completeStep.mutate('mfa');
    },
  });
}
