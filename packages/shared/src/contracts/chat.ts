import { z } from 'zod';
import { CHAT_END_REASONS, CHAT_PROVIDER_TYPES, CHAT_STATUSES } from '../chat';
import { MessageEventSchema, QueueEntrySchema } from '../chat-protocol';
import { IdParamSchema, IdSchema } from './common';

export * from '../chat';

/**
 * The live chat's REST side: the peer-coaching calls of §7 (reasons, joining the queue,
 * ending), the socket's ticket, the console's queue, and the history of past chats.
 * The socket's messages are in chat-protocol.ts.
 */

/** One reason for a chat, with its label in the request's language. */
export const ChatReasonSchema = z.object({ value: z.string(), name: z.string() });

/** GET /api/v1/peercoaching/providertypereasons/: what a patient may chat about, per provider type. */
export const ProviderTypeReasonsSchema = z
  .object({
    provider_type: z.enum(CHAT_PROVIDER_TYPES),
    provider_type_name: z.string(),
    reasons: z.array(ChatReasonSchema),
  })
  .meta({ id: 'ProviderTypeReasons' });
export type ProviderTypeReasons = z.infer<typeof ProviderTypeReasonsSchema>;

/** POST /api/v1/peercoaching/sendmessagetoqueue/: join the queue (or get the chat already open). */
export const JoinQueueBodySchema = z
  .object({
    provider_type: z.enum(CHAT_PROVIDER_TYPES, { message: 'validation:chatProviderType' }),
    reason: z.string({ message: 'validation:chatReasonRequired' }).min(1, { message: 'validation:chatReasonRequired' }).max(100),
    patient_id: IdSchema.optional().describe('acting for another patient (full access); default: yourself'),
  })
  .meta({ id: 'JoinQueueBody' });
export type JoinQueueBody = z.input<typeof JoinQueueBodySchema>;

/**
 * The chat connection details (§3): what the socket's query is made of, with the
 * conversation's state. `socketURL` only when the chat server is elsewhere than this origin.
 */
export const ChatDetailsSchema = z
  .object({
    conversation_id: z.number().int(),
    status: z.enum(CHAT_STATUSES),
    user_id: z.number().int(),
    patient_name: z.string(),
    patient_id: z.number().int(),
    reason: z.string(),
    reason_for_visit: z.string().describe('the reason, in words'),
    provider_type: z.enum(CHAT_PROVIDER_TYPES),
    provider_name: z.string().nullable(),
    credential_id: z.string(),
    org_name: z.string().describe("the organisation's client id (the socket's orgName)"),
    socketURL: z.string().optional(),
    position: z.number().int().nullable().describe('in the queue, while queued'),
    queued_at: z.string(),
  })
  .meta({ id: 'ChatDetails' });
export type ChatDetails = z.infer<typeof ChatDetailsSchema>;

/** GET /api/v1/chat/current/: the chat open for the patient, if any (after a reload). */
export const CurrentChatSchema = z.object({ chat: ChatDetailsSchema.nullable() });
export type CurrentChat = z.infer<typeof CurrentChatSchema>;

/** POST /api/v1/peercoaching/endchat/ */
export const EndChatBodySchema = z
  .object({
    conversation_id: IdSchema.optional().describe("default: the patient's open chat (patients); required for staff"),
    patient_id: IdSchema.optional(),
  })
  .meta({ id: 'EndChatBody' });
export type EndChatBody = z.input<typeof EndChatBodySchema>;

/**
 * A single-use ticket for one of the product's sockets, valid 30 seconds: the chat's
 * (POST /api/v1/chat/ticket/) or a video visit's (POST …/visit/ticket/), `socket_path` saying
 * which. One ticket store serves both; the OpenAPI component keeps its first name, ChatTicket.
 */
export const SocketTicketSchema = z
  .object({
    ticket: z.string(),
    expires_in: z.number().int(),
    socket_path: z.string(),
  })
  .meta({ id: 'ChatTicket' });
export type SocketTicket = z.infer<typeof SocketTicketSchema>;
/** The chat's name for the same ticket (clients and tests of the chat use it). */
export const ChatTicketSchema = SocketTicketSchema;
export type ChatTicket = SocketTicket;

/** A conversation in the history lists. */
export const ChatConversationSchema = z
  .object({
    conversation_id: z.number().int(),
    status: z.enum(CHAT_STATUSES),
    patient_id: z.number().int(),
    patient_name: z.string(),
    provider_user_id: z.number().int().nullable(),
    provider_name: z.string().nullable(),
    provider_type: z.enum(CHAT_PROVIDER_TYPES),
    reason: z.string(),
    reason_for_visit: z.string(),
    queued_at: z.string(),
    started_at: z.string().nullable(),
    ended_at: z.string().nullable(),
    end_reason: z.enum(CHAT_END_REASONS).nullable(),
    message_count: z.number().int(),
    file_count: z.number().int(),
  })
  .meta({ id: 'ChatConversation' });
export type ChatConversation = z.infer<typeof ChatConversationSchema>;

/** GET /api/v1/chat/conversations/{id}/: one conversation and its messages (participants only). */
export const ChatTranscriptSchema = z
  .object({
    conversation: ChatConversationSchema,
    messages: z.array(MessageEventSchema),
  })
  .meta({ id: 'ChatTranscript' });
export type ChatTranscript = z.infer<typeof ChatTranscriptSchema>;

/** GET /api/v1/chat/conversations/: `patient` (a patient's own or acted-for; staff: a patient they chatted with). */
export const ChatConversationsQuerySchema = z.object({
  patient: IdParamSchema.optional(),
});

export const ChatIdParamsSchema = z.object({ id: IdParamSchema });

/** POST /api/v1/chat/queue/take/: a chosen waiting patient, or the next of a provider type. */
export const TakeChatBodySchema = z
  .object({
    conversation_id: IdSchema.optional(),
    provider_type: z.enum(CHAT_PROVIDER_TYPES).optional().describe('with no conversation_id: the next of this queue (default: any queue you serve)'),
  })
  .meta({ id: 'TakeChatBody' });
export type TakeChatBody = z.input<typeof TakeChatBodySchema>;

/** GET /api/v1/chat/queue/: the waiting patients of the queues the staff member serves. */
export const ChatQueueSchema = z.array(QueueEntrySchema);
