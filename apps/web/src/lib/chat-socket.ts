import type { ServerEvent } from '@healthbook/shared/chat-protocol';
import type { SocketTicket } from '@healthbook/shared/contracts/chat';
import { api } from './api-client';

/**
 * What the staff's chat console and a video visit's chat need of the live chat's socket client.
 * The client itself (ChatConnection, features/live-help/lib/chat-connection.ts) belongs to the
 * patient's feature; features do not import each other, so app/feature-modules.ts hands it to
 * them as a factory, and the compiler checks there that it fits this shape.
 */
export type ChatSocketStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ChatSocketOptions {
  role: 'patient' | 'staff';
  /** The socket's query except `ticket` and `lastMessageId`. */
  query: Record<string, string | number | boolean | undefined>;
  socketUrl?: string;
  /** POST /api/v1/chat/ticket/: a fresh single-use ticket for every (re)connection. */
  getTicket: () => Promise<string>;
  /** Every valid server event (a message once). */
  onEvent: (event: ServerEvent) => void;
  onStatus: (status: ChatSocketStatus, closeCode?: number) => void;
}

/** A file the server stored (the client may answer nothing: then the console knows no id). */
export interface ChatSocketFileSent {
  id: number | null;
  clientMessageId?: string;
}

export interface ChatSocket {
  connect(): void;
  close(): void;
  /** Answers the message's clientMessageId (null: nothing sent). */
  sendText(text: string, conversationId?: number): string | null;
  /** Inline or in acknowledged slices; rejects when the file was not sent. */
  sendFile(file: File, conversationId?: number, onProgress?: (sent: number, total: number) => void): Promise<ChatSocketFileSent | void>;
  endChat(conversationId?: number): unknown;
  typing(conversationId?: number): void;
  readonly status: ChatSocketStatus;
  readonly lastMessageId: number;
}

export type ChatSocketFactory = (options: ChatSocketOptions) => ChatSocket;

/** Why a file was not sent, as the socket client says it (`code`, and the server's words if it refused). */
export function fileErrorOf(error: unknown): { code: string | null; serverMessage: string | null } {
  if (typeof error !== 'object' || error === null) return { code: null, serverMessage: null };
  const { code, serverMessage } = error as { code?: unknown; serverMessage?: unknown };
  return { code: typeof code === 'string' ? code : null, serverMessage: typeof serverMessage === 'string' && serverMessage ? serverMessage : null };
}

/** POST /api/v1/chat/ticket/: a single-use ticket (30 s) that opens the chat socket, one per connection (the patient's chat, the console, a visit's chat). */
export const getChatTicket = async (): Promise<string> => (await api.post<SocketTicket>('/api/v1/chat/ticket/', {})).ticket;
