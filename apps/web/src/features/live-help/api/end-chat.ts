import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import { api } from '../../../lib/api-client';

/** POST /api/v1/peercoaching/endchat/: ends the patient's open chat (or the one named); 404 when nothing is open. */
export const endChat = (conversationId?: number) =>
  api.post<ChatConversation>('/api/v1/peercoaching/endchat/', conversationId ? { conversation_id: conversationId } : {});
