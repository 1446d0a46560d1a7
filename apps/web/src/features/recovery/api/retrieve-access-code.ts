import { useMutation } from '@tanstack/react-query';
import type { CodeRetrievalBody } from '@healthbook/shared/contracts/invitations';
import { api } from '../../../lib/api-client';

/** POST /api/v1/users/coderetrieval/: 200 with a message text when the request is taken. */
export const retrieveAccessCode = (body: CodeRetrievalBody) => api.post<unknown>('/api/v1/users/coderetrieval/', body);

export const useRetrieveAccessCode = () => useMutation({ mutationFn: retrieveAccessCode });
