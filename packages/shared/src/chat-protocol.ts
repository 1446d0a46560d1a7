import { z } from 'zod';
import {
  CHAT_FILE_NAME_MAX,
  CHAT_PROVIDER_TYPES,
  CHAT_SLICE_CHARS,
  CHAT_STATUSES,
  CHAT_TEXT_MAX,
  CHAT_END_REASONS,
} from './chat';

export * from './chat';

/**
 * The live chat's wire protocol (§7 "Live chat connection"), used by the server, the web app,
 * the tests and the bench. Every frame is one JSON object.
 *
 * Client → server frames are told apart by `action`. The original product's client sends
 * everything as `action: "sendMessage"`, with `Msg: "getPosition"` as its heartbeat, file slices
 * carrying `chunkId, fileName, chunkSize, isEOF`, and a file other than text flagged by its
 * `contentType`; our own actions (`endChat`, `typing`) are added beside it. A frame that matches
 * none of these is answered with an `error` and, after CHAT_MAX_ERRORS, the socket is closed.
 *
 * Server → client events are told apart by `type` and carry the original field names
 * (`Position`, `Message`, `SenderName`, `ProviderType`, `contentType`, `received`), so a client
 * of the original protocol that reads only those fields works.
 */

/** Who a frame is for: a conversation id (our client), or the other party's user id (the original's ReceiverId). */
const receiverId = z.union([z.number().int().positive(), z.string().regex(/^\d{1,12}$/).transform(Number)]);
const conversationId = z.number().int().positive();
/** A client's own id for a message, so a message re-sent after a reconnect is stored once. */
const clientMessageId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/);
const contentType = z.string().min(1).max(100);
/** No NUL character anywhere (PostgreSQL text cannot hold one: refused here, never a server error). */
const noNul = (value: string) => !value.includes('\u0000');
const fileName = z.string().trim().min(1).max(CHAT_FILE_NAME_MAX * 2).refine(noNul);

/** The heartbeat: asks for the queue position (and keeps the patient counted as present). */
export const HeartbeatFrameSchema = z.object({
  kind: z.literal('heartbeat'),
  action: z.literal('sendMessage'),
  Msg: z.literal('getPosition'),
  ReceiverId: receiverId.optional(),
  conversationId: conversationId.optional(),
});

/** One slice of a file larger than the inline limit; the next is sent after `received: "ok"`. */
export const FileSliceFrameSchema = z.object({
  kind: z.literal('slice'),
  action: z.literal('sendMessage'),
  chunkId: z.number().int().min(0),
  fileName,
  chunkSize: z.number().int().min(1).max(CHAT_SLICE_CHARS),
  isEOF: z.boolean(),
  /** This slice's base64 (at most 32,000 characters). */
  Msg: z.string().min(1).max(CHAT_SLICE_CHARS),
  contentType: contentType.optional(),
  ReceiverId: receiverId.optional(),
  conversationId: conversationId.optional(),
  clientMessageId: clientMessageId.optional(),
});

/** A file up to the inline limit, in one frame: `Msg` is its base64, `contentType` its declared type. */
export const InlineFileFrameSchema = z.object({
  kind: z.literal('file'),
  action: z.literal('sendMessage'),
  contentType: contentType.refine((t) => t !== 'text/plain'),
  fileName,
  Msg: z.string().min(1),
  ReceiverId: receiverId.optional(),
  conversationId: conversationId.optional(),
  clientMessageId: clientMessageId.optional(),
});

/** A text message. */
export const TextFrameSchema = z.object({
  kind: z.literal('text'),
  action: z.literal('sendMessage'),
  Msg: z.string().max(CHAT_TEXT_MAX).refine(noNul),
  contentType: z.literal('text/plain').default('text/plain'),
  ReceiverId: receiverId.optional(),
  conversationId: conversationId.optional(),
  clientMessageId: clientMessageId.optional(),
});

/** Ends the chat (the REST call POST /api/v1/peercoaching/endchat/ does the same). */
export const EndChatFrameSchema = z.object({
  kind: z.literal('endChat'),
  action: z.literal('endChat'),
  ReceiverId: receiverId.optional(),
  conversationId: conversationId.optional(),
});

/** The sender is typing (relayed, never stored). */
export const TypingFrameSchema = z.object({
  kind: z.literal('typing'),
  action: z.literal('typing'),
  ReceiverId: receiverId.optional(),
  conversationId: conversationId.optional(),
});

/** What a client frame is. */
export const CLIENT_FRAME_KINDS = ['heartbeat', 'slice', 'file', 'text', 'endChat', 'typing'] as const;
export type ClientFrameKind = (typeof CLIENT_FRAME_KINDS)[number];

/**
 * Which kind a frame on the wire is: `endChat`/`typing` by their action; the `sendMessage`
 * action carries four (a slice has `chunkId`; the heartbeat's Msg is "getPosition"; a file has a
 * `fileName` and a type other than text; the rest is text). Null: no known action.
 */
export function classifyClientFrame(value: unknown): ClientFrameKind | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const frame = value as Record<string, unknown>;
  if (frame.action === 'endChat') return 'endChat';
  if (frame.action === 'typing') return 'typing';
  if (frame.action !== 'sendMessage') return null;
  if (frame.chunkId !== undefined) return 'slice';
  if (frame.fileName !== undefined && frame.contentType !== undefined && frame.contentType !== 'text/plain') return 'file';
  if (frame.Msg === 'getPosition') return 'heartbeat';
  return 'text';
}

/**
 * Every client frame, as a union discriminated by its kind. On the wire a frame has no `kind`:
 * it is derived by classifyClientFrame (the original protocol's shapes all share one action).
 */
export const ClientFrameSchema = z.preprocess(
  (value) => {
    const kind = classifyClientFrame(value);
    return kind ? { ...(value as object), kind } : value;
  },
  z.discriminatedUnion('kind', [HeartbeatFrameSchema, FileSliceFrameSchema, InlineFileFrameSchema, TextFrameSchema, EndChatFrameSchema, TypingFrameSchema]),
);
export type ClientFrame = z.output<typeof ClientFrameSchema>;
/** A frame as a client writes it (no `kind`). */
export type ClientFrameInput = DistributiveOmit<z.input<typeof HeartbeatFrameSchema> | z.input<typeof FileSliceFrameSchema> | z.input<typeof InlineFileFrameSchema> | z.input<typeof TextFrameSchema> | z.input<typeof EndChatFrameSchema> | z.input<typeof TypingFrameSchema>, 'kind'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type HeartbeatFrame = z.output<typeof HeartbeatFrameSchema>;
export type FileSliceFrame = z.output<typeof FileSliceFrameSchema>;
export type InlineFileFrame = z.output<typeof InlineFileFrameSchema>;
export type TextFrame = z.output<typeof TextFrameSchema>;

/** Parses one frame's text: the frame, or why not (`json` for text that is not JSON). */
export function parseClientFrame(text: string): { ok: true; frame: ClientFrame } | { ok: false; reason: 'json' | 'shape' } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'json' };
  }
  const parsed = ClientFrameSchema.safeParse(value);
  return parsed.success ? { ok: true, frame: parsed.data } : { ok: false, reason: 'shape' };
}

// ---------------------------------------------------------------------------------------------
// Server → client

const instant = z.string();
const providerType = z.enum(CHAT_PROVIDER_TYPES);

/** A file carried by a message: a download only the conversation's participants can open. */
export const ChatFileSchema = z.object({
  id: z.number().int().describe('the message id; GET /api/v1/chat/files/{id}/ answers the bytes'),
  name: z.string(),
  size: z.number().int(),
  content_type: z.string(),
});
export type ChatFile = z.infer<typeof ChatFileSchema>;

/** Where the patient is in the queue (1 is next). */
export const PositionEventSchema = z.object({
  type: z.literal('position'),
  conversationId,
  Position: z.number().int().min(1),
});

/**
 * A message of the conversation, stored before it is sent. `Message` is the text, or a file's
 * name (with `file`); `SenderName`/`ProviderType` name who wrote it; `me` is true on the
 * sender's other sockets. `id`s grow: a client resumes after the last it has.
 */
export const MessageEventSchema = z.object({
  type: z.literal('message'),
  id: z.number().int(),
  conversationId,
  Message: z.string(),
  SenderName: z.string(),
  ProviderType: providerType.nullable(),
  contentType: z.string(),
  me: z.boolean(),
  sentAt: instant,
  /** A system notice (the greeting, the exit notice) rather than a person's words. */
  kind: z.enum(['text', 'file', 'greeting', 'exit']),
  file: ChatFileSchema.nullable(),
  clientMessageId: z.string().nullable(),
});

/**
 * A provider took the patient: the Chat dialog opens. The greeting itself follows as a message
 * of kind `greeting` (its text contains "How can I help you today" in English).
 */
export const StartedEventSchema = z.object({
  type: z.literal('started'),
  conversationId,
  provider_name: z.string(),
  provider_type: providerType,
  patient_name: z.string(),
  patient_id: z.number().int(),
  reason_for_visit: z.string(),
  startedAt: instant,
});

/** The other party (or the server) ended the chat; `Message` is "<name> exited the chat session at <ISO time>". */
export const EndedEventSchema = z.object({
  type: z.literal('ended'),
  conversationId,
  Message: z.string(),
  SenderName: z.string(),
  endedAt: instant,
  reason: z.enum(CHAT_END_REASONS),
});

/** The server stored what was sent: `received: "ok"` (a slice: its chunkId; a whole message: its id). */
export const AckEventSchema = z.object({
  type: z.literal('ack'),
  received: z.literal('ok'),
  conversationId,
  chunkId: z.number().int().nullable(),
  id: z.number().int().nullable().describe('the stored message, once the whole message (or the last slice) is stored'),
  clientMessageId: z.string().nullable(),
});

/** A refused frame: a stable code and a message in the user's language. Nothing was stored. */
export const CHAT_ERROR_CODES = [
  'invalidJson',
  'invalidMessage',
  'notInConversation',
  'notActive',
  'emptyMessage',
  'fileTooLarge',
  'fileType',
  'sliceOrder',
  'sliceInvalid',
  'transferBusy',
  'rateLimited',
  'serverError',
  'tooManySockets',
  'fileTimeout',
  'endsWithVisit',
] as const;
export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number];
export const ErrorEventSchema = z.object({
  type: z.literal('error'),
  code: z.enum(CHAT_ERROR_CODES),
  Message: z.string(),
  clientMessageId: z.string().nullable(),
  chunkId: z.number().int().nullable(),
});

/** The other party is typing. */
export const TypingEventSchema = z.object({
  type: z.literal('typing'),
  conversationId,
  SenderName: z.string(),
});

/** One waiting patient, as the console lists them. */
export const QueueEntrySchema = z.object({
  conversation_id: z.number().int(),
  patient_id: z.number().int(),
  patient_name: z.string(),
  provider_type: providerType,
  reason_for_visit: z.string(),
  queued_at: instant,
  position: z.number().int().min(1),
});
export type QueueEntry = z.infer<typeof QueueEntrySchema>;

/** To staff: the queues they serve, whole, after every change. */
export const QueueEventSchema = z.object({
  type: z.literal('queue'),
  queue: z.array(QueueEntrySchema),
});

/**
 * The first event on every socket: who this socket is, and the conversations it is in (a
 * patient's one; a provider's active ones). A reconnecting client then gets the messages after
 * its `lastMessageId` as ordinary `message` events.
 */
export const WelcomeEventSchema = z.object({
  type: z.literal('welcome'),
  role: z.enum(['patient', 'staff']),
  userId: z.number().int(),
  conversations: z.array(
    z.object({
      conversation_id: z.number().int(),
      status: z.enum(CHAT_STATUSES),
      patient_id: z.number().int(),
      patient_name: z.string(),
      provider_name: z.string().nullable(),
      provider_type: providerType,
      reason_for_visit: z.string(),
    }),
  ),
});

export const ServerEventSchema = z.discriminatedUnion('type', [
  WelcomeEventSchema,
  PositionEventSchema,
  MessageEventSchema,
  StartedEventSchema,
  EndedEventSchema,
  AckEventSchema,
  ErrorEventSchema,
  TypingEventSchema,
  QueueEventSchema,
]);
export type ServerEvent = z.infer<typeof ServerEventSchema>;
export type MessageEvent = z.infer<typeof MessageEventSchema>;
export type StartedEvent = z.infer<typeof StartedEventSchema>;
export type EndedEvent = z.infer<typeof EndedEventSchema>;
export type AckEvent = z.infer<typeof AckEventSchema>;
export type ErrorEvent = z.infer<typeof ErrorEventSchema>;
export type QueueEvent = z.infer<typeof QueueEventSchema>;
export type WelcomeEvent = z.infer<typeof WelcomeEventSchema>;

/**
 * The socket's query (§7): `userId, reason, providerType, isPatient, credential, patientId,
 * orgName`, the single-use `ticket`, and, when reconnecting, `lastMessageId`. All are strings
 * on the wire; the server checks each against the signed-in user.
 *
 * A video visit's chat (the `chat_conversation_id` of GET /api/v1/appointments/{id}/visit/):
 * `ticket, userId, isPatient` (false for the provider) and `conversationId`; the socket is then in
 * that conversation only, for the appointment's two participants while the visit runs.
 */
export const SocketQuerySchema = z.object({
  ticket: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/),
  userId: z.string().regex(/^\d{1,12}$/).transform(Number),
  isPatient: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  reason: z.string().max(100).optional(),
  providerType: z.string().max(40).optional(),
  credential: z.string().max(200).optional(),
  patientId: z.string().regex(/^\d{1,12}$/).transform(Number).optional(),
  orgName: z.string().max(200).optional(),
  lastMessageId: z.string().regex(/^\d{1,15}$/).transform(Number).optional(),
  /** A video visit's chat: its conversation (the visit's `chat_conversation_id`). */
  conversationId: z.string().regex(/^\d{1,12}$/).transform(Number).optional(),
});
export type SocketQuery = z.output<typeof SocketQuerySchema>;
export type SocketQueryInput = z.input<typeof SocketQuerySchema>;

/** The socket's address for a query (the ticket inside; the server never logs it). */
export function chatSocketUrl(base: string, query: Record<string, string | number | boolean | undefined | null>): string {
  const pairs = Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return pairs.length ? `${base}${base.includes('?') ? '&' : '?'}${pairs.join('&')}` : base;
}
