import { useMutation } from '@tanstack/react-query';
import type { HelpContactBody, HelpContactSent } from '@healthbook/shared/contracts/help';
import { api } from '../../../lib/api-client';

/** POST /api/v1/help/contact/: a message to the organisation's support address (3 an hour). */
export const sendContact = (body: HelpContactBody) => api.post<HelpContactSent>('/api/v1/help/contact/', body);

export const useSendContact = () => useMutation({ mutationFn: sendContact });
