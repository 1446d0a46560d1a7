import { useMutation } from '@tanstack/react-query';
import type { AccountSetupAnswer, AccountSetupBody } from '@healthbook/shared/contracts/account-setup';
import { api } from '../../../lib/api-client';

/** POST /api/v1/account_setup/: 200 when the password is set; 400 {password} weak, 410 {detail, reason} the link no longer works. */
export const completeAccountSetup = (body: AccountSetupBody) => api.post<AccountSetupAnswer>('/api/v1/account_setup/', body);

export const useCompleteAccountSetup = () => useMutation({ mutationFn: completeAccountSetup });
