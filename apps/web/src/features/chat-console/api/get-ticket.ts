import type { ChatTicket } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';

/** POST /api/v1/chat/ticket/: a single-use ticket (30 s) for one socket; a fresh one for every (re)connection. */
export const getChatTicket = async (): Promise<string> => (await api.post<ChatTicket>('/api/v1/chat/ticket/', {})).ticket;
