import type { ChatDetails, CurrentChat } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';

/** GET /api/v1/chat/current/: the patient's open chat (queued or active), e.g. after a reload; null when none. */
export const getCurrentChat = async (): Promise<ChatDetails | null> => (await api.get<CurrentChat>('/api/v1/chat/current/')).chat;
