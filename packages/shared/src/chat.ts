/**
 * Live chat constants shared by the server, the web app and the bench, without zod (the
 * socket's messages are in chat-protocol.ts, the REST calls in contracts/chat.ts).
 * Hub document §4 "Chat lifecycle", "Inactivity", "File sending"; §5 "Chat"; §9.
 */

/** Who a patient may chat with: the roles of the staff who take a queue (a peer coach or a provider). */
export const CHAT_PROVIDER_TYPES = ['coach', 'provider'] as const;
export type ChatProviderType = (typeof CHAT_PROVIDER_TYPES)[number];

/**
 * The reasons offered for each provider type (GET /api/v1/peercoaching/providertypereasons/).
 * Labels are in the `chat` locale namespace under `reasons.<value>`.
 */
export const CHAT_REASONS: Record<ChatProviderType, readonly string[]> = {
  coach: ['stress', 'loneliness', 'living-with-condition', 'caregiving', 'healthy-habits', 'other'],
  provider: ['symptoms', 'medication', 'test-results', 'follow-up', 'prescription', 'other'],
};

/** Files up to this many bytes go inline (one frame, base64). */
export const CHAT_INLINE_MAX_BYTES = 32_000;
/** The largest file a chat carries: 5 MB. */
export const CHAT_FILE_MAX_BYTES = 5_242_880;
/** A larger file goes in base64 slices of at most this many characters, each acknowledged before the next. */
export const CHAT_SLICE_CHARS = 32_000;
/** The server refuses a frame larger than this (an inline file's base64 and its JSON fit under it). */
export const CHAT_FRAME_MAX_BYTES = 64 * 1024;
/** The longest text message. */
export const CHAT_TEXT_MAX = 4_000;
/** A file's name is cut to this length. */
export const CHAT_FILE_NAME_MAX = 200;

/** Client timers (§9): silence while waiting ends the wait; in a chat, a prompt, then the end. */
export const CHAT_WAIT_TIMEOUT_MS = 10 * 60_000;
export const CHAT_IDLE_PROMPT_MS = 3 * 60_000;
export const CHAT_IDLE_END_MS = 2 * 60_000;
/** The client's heartbeat (`Msg: "getPosition"`), which also tells the server the patient is still there. */
export const CHAT_HEARTBEAT_MS = 20_000;
/** A queued patient not heard from (no socket, no heartbeat) for this long no longer counts in the queue. */
export const CHAT_PRESENCE_TTL_MS = 60_000;
/** The server pings every socket this often and drops one that has not answered the previous ping. */
export const CHAT_PING_MS = 30_000;
/** The ticket that opens a socket: single use, valid this long. */
export const CHAT_TICKET_TTL_S = 30;
/** Protocol errors on one socket before it is closed. */
export const CHAT_MAX_ERRORS = 5;
/** Open sockets one user may have on one server process (tabs, devices); one more is closed with CHAT_CLOSE.tooManySockets. */
export const CHAT_SOCKETS_PER_USER = 5;
/** File slices one socket may send: a burst, then this many a second (a faster sender's slices wait for their turn). */
export const CHAT_SLICE_BURST = 64;
export const CHAT_SLICES_PER_S = 64;
/** File slices one user may send a second over all their sockets (across processes with Redis). */
export const CHAT_USER_SLICES_PER_S = 96;
/** The longest a slice waits for its turn under those limits; past it the slice is refused (`rateLimited`) and the file dropped. */
export const CHAT_SLICE_WAIT_MAX_MS = 2_000;
/** Frames one socket may have waiting to be handled; more are refused (`rateLimited`): a sender that does not wait for acks. */
export const CHAT_PENDING_FRAMES_MAX = 16;
/** A file in slices with no slice for this long, or unfinished after CHAT_FILE_TRANSFER_MAX_MS, is dropped (`fileTimeout`). */
export const CHAT_FILE_IDLE_MS = 30_000;
export const CHAT_FILE_TRANSFER_MAX_MS = 5 * 60_000;
/** Reconnecting: the first delay, the cap, and the share of random jitter. */
export const CHAT_RECONNECT_BASE_MS = 500;
export const CHAT_RECONNECT_MAX_MS = 15_000;

/** The socket's path on the product's own origin (chat details may carry another `socketURL`). */
export const CHAT_SOCKET_PATH = '/api/v1/chat/socket/';

/** A chat file's address (GET: its bytes, for the conversation's participants; sent behind the Authorization header). */
export const chatFilePath = (messageId: number) => `/api/v1/chat/files/${messageId}/`;

/** The greeting's words that open the Chat dialog in a client of the original protocol. */
export const CHAT_GREETING_MARKER = 'How can I help you today';

/**
 * Close codes (4000-4999 are the application's). A client reconnects after any other code and
 * after CHAT_CLOSE.replaced / unavailable; after these it stops and shows why.
 */
export const CHAT_CLOSE = {
  /** The ticket is missing, unknown, used or older than 30 s. */
  ticket: 4401,
  /** A query parameter does not belong to the signed-in user or their organisation. */
  mismatch: 4403,
  /** No chat to join (nothing queued or open for this patient, or the parameters do not start one). */
  noChat: 4404,
  /** Too many malformed or refused messages. */
  protocol: 4400,
  /** The user may not chat (read-only care network access, no staff role, feature off). */
  forbidden: 4409,
  /** The chat ended (by either side, or the server's clean-up). */
  ended: 4000,
  /** The session was signed out or ended. */
  session: 4001,
  /** The server is restarting: reconnect. */
  restarting: 1012,
  /** The user already has CHAT_SOCKETS_PER_USER sockets open (close another tab first). */
  tooManySockets: 4429,
} as const;
export type ChatCloseCode = (typeof CHAT_CLOSE)[keyof typeof CHAT_CLOSE];
/** Close codes after which a client must not reconnect. */
export const CHAT_FINAL_CLOSE_CODES: readonly number[] = [
  CHAT_CLOSE.ticket,
  CHAT_CLOSE.mismatch,
  CHAT_CLOSE.noChat,
  CHAT_CLOSE.protocol,
  CHAT_CLOSE.forbidden,
  CHAT_CLOSE.ended,
  CHAT_CLOSE.session,
  CHAT_CLOSE.tooManySockets,
];

/** A conversation's life: waiting in the queue, taken by a provider, over. */
export const CHAT_STATUSES = ['queued', 'active', 'ended'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];
/** Why it ended. */
export const CHAT_END_REASONS = ['patient', 'provider', 'timeout', 'abandoned'] as const;
export type ChatEndReason = (typeof CHAT_END_REASONS)[number];

/**
 * The exit notice's time, in the viewer's local time, as §4 has it: yyyy-MM-DD hh:mm (24-hour).
 * `at` is an ISO instant.
 */
export function formatChatExitTime(at: string | Date, timeZone?: string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  const parts = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/** Whether a slice or inline payload is strict base64 (the standard alphabet, padded, nothing else). */
export function isStrictBase64(value: string): boolean {
  return value.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(value);
}

/** How many bytes a strict base64 string decodes to. */
export function base64DecodedLength(value: string): number {
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

/** The socket's query for a patient (§7), from their chat details (the ticket and lastMessageId are added when connecting). */
export function patientSocketQuery(details: {
  user_id: number;
  reason: string;
  provider_type: ChatProviderType;
  credential_id: string;
  patient_id: number;
  org_name: string;
}) {
  return {
    userId: details.user_id,
    isPatient: true,
    reason: details.reason,
    providerType: details.provider_type,
    credential: details.credential_id,
    patientId: details.patient_id,
    orgName: details.org_name,
  };
}
