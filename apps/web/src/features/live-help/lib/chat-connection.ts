import {
  CHAT_FILE_MAX_BYTES,
  CHAT_FINAL_CLOSE_CODES,
  CHAT_HEARTBEAT_MS,
  CHAT_INLINE_MAX_BYTES,
  CHAT_RECONNECT_BASE_MS,
  CHAT_RECONNECT_MAX_MS,
  CHAT_SLICE_CHARS,
  CHAT_SOCKET_PATH,
} from '@healthbook/shared/chat';
import { chatSocketUrl, ServerEventSchema, type ClientFrameInput, type ServerEvent } from '@healthbook/shared/chat-protocol';
import { backoffDelay, isFinalTicketError, pageSocketUrl, parseSocketEvent } from '../../../lib/socket-client';

/**
 * The live chat's socket (§7 "Live chat connection"; the protocol in packages/shared
 * chat-protocol.ts), without React: the patient's dialog and the staff console both drive one.
 *
 * - A single-use ticket (POST /api/v1/chat/ticket/) opens every socket, the first and each
 *   reconnection.
 * - The server's `welcome` says the socket is ready: then the heartbeat (`Msg: "getPosition"`)
 *   goes at once and every CHAT_HEARTBEAT_MS, and texts not yet acknowledged go (again).
 * - A close with a code of CHAT_FINAL_CLOSE_CODES ends it; any other close reconnects after
 *   exponential backoff with full jitter (CHAT_RECONNECT_BASE_MS … CHAT_RECONNECT_MAX_MS),
 *   resuming after the largest message id seen (`lastMessageId`).
 * - Events are validated with ServerEventSchema; a message already seen (same id) is dropped.
 * - Files: up to CHAT_INLINE_MAX_BYTES in one frame; larger ones (up to CHAT_FILE_MAX_BYTES) as
 *   CHAT_SLICE_CHARS-character base64 slices, each sent after the server acknowledged the one before.
 */

export type ChatConnectionStatus = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ChatConnectionOptions {
  role: 'patient' | 'staff';
  /** The socket's query except `ticket` and `lastMessageId` (patient: userId, isPatient, reason, providerType, credential, patientId, orgName). */
  query: Record<string, string | number | boolean | undefined>;
  /**
   * The query of the reconnections, if other than `query`. The patient's leaves out reason and
   * providerType: with those, a socket finding no open chat joins the queue anew (§7), which a
   * reconnection after the chat ended must not do (it gets CHAT_CLOSE.noChat instead).
   */
  reconnectQuery?: Record<string, string | number | boolean | undefined>;
  /** ChatDetails.socketURL; by default this page's origin (ws: or wss:) + CHAT_SOCKET_PATH. */
  socketUrl?: string | undefined;
  /** POST /api/v1/chat/ticket/: a fresh single-use ticket. */
  getTicket: () => Promise<string>;
  /** Every valid server event, a message only once. */
  onEvent: (event: ServerEvent) => void;
  onStatus: (status: ChatConnectionStatus, closeCode?: number) => void;
  /** Tests: a fake WebSocket. */
  WebSocketImpl?: typeof WebSocket;
  /** Tests: the jitter's randomness (0 ≤ x < 1). */
  random?: () => number;
  /** The largest message id the caller already has (e.g. from the transcript after a reload): the first socket resumes after it. */
  lastMessageId?: number;
}

/** Why a file was not sent. */
export type ChatFileErrorCode = 'tooLarge' | 'notConnected' | 'busy' | 'refused' | 'interrupted';

export class ChatFileError extends Error {
  constructor(
    readonly code: ChatFileErrorCode,
    /** The server's own words (already in the user's language), when it refused the file. */
    readonly serverMessage: string | null = null,
  ) {
    super(serverMessage ?? code);
    this.name = 'ChatFileError';
  }
}

/** A file the server stored: its message id (the download's id) and the client's id for it. */
export interface ChatFileSent {
  id: number | null;
  clientMessageId: string;
}

/** A text sent and not yet acknowledged: sent again (same clientMessageId) after a reconnect. */
interface PendingText {
  frame: ClientFrameInput;
}

/** The file being sent, waiting for the server's `ack` of its slice (or of the whole file). */
interface Transfer {
  clientMessageId: string;
  /** The slice waiting for its ack; null for an inline file. */
  chunkId: number | null;
  onAck: (id: number | null) => void;
  onError: (error: ChatFileError) => void;
}

const WS_OPEN = 1;
/** Typing notices go at most this often. */
const TYPING_EVERY_MS = 3_000;

/** A client id for a message: 32 hex characters. */
export function newClientMessageId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The bytes as base64 (no data: prefix), built in blocks so a 5 MB file does not overflow the stack. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const block = 0x8000;
  for (let i = 0; i < bytes.length; i += block) binary += String.fromCharCode(...bytes.subarray(i, i + block));
  return btoa(binary);
}

/** The delay before reconnection attempt `attempt` (0, 1, …): full jitter over the capped exponential. */
export const reconnectDelay = (attempt: number, random: () => number): number => backoffDelay(attempt, random, CHAT_RECONNECT_BASE_MS, CHAT_RECONNECT_MAX_MS);

export class ChatConnection {
  private readonly options: ChatConnectionOptions;
  private socket: WebSocket | null = null;
  /** The server said `welcome` on the current socket: frames may go. */
  private ready = false;
  private currentStatus: ChatConnectionStatus = 'idle';
  private attempt = 0;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** close() was called: nothing reconnects any more. */
  private stopped = false;
  private readonly seen = new Set<number>();
  private maxId = 0;
  private readonly pending = new Map<string, PendingText>();
  private transfer: Transfer | null = null;
  private lastTyping = 0;
  /** A socket was opened before: the next ones are reconnections. */
  private reconnecting = false;

  constructor(options: ChatConnectionOptions) {
    this.options = options;
    this.maxId = options.lastMessageId ?? 0;
  }

  get status(): ChatConnectionStatus {
    return this.currentStatus;
  }

  /** The largest message id seen (a message or the ack of one sent): a reconnection resumes after it. */
  get lastMessageId(): number {
    return this.maxId;
  }

  connect(): void {
    if (this.socket || this.retry || this.currentStatus === 'connecting') return;
    this.stopped = false;
    this.setStatus('connecting');
    void this.open();
  }

  /** Closes for good (no reconnection); a file being sent fails. */
  close(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    if (socket && socket.readyState <= WS_OPEN) socket.close(1000);
    this.failTransfer('interrupted');
    if (this.currentStatus !== 'closed') this.setStatus('closed');
  }

  /**
   * Sends a text (trimmed); empty or only whitespace: nothing is sent and null is answered.
   * Answers the message's clientMessageId. Kept until the server acknowledges it and sent
   * again, with the same id, after a reconnection (the server stores it once).
   */
  sendText(text: string, conversationId?: number): string | null {
    const Msg = text.trim();
    if (!Msg) return null;
    const clientMessageId = newClientMessageId();
    const frame: ClientFrameInput = { action: 'sendMessage', Msg, contentType: 'text/plain', clientMessageId, ...(conversationId ? { conversationId } : {}) };
    this.pending.set(clientMessageId, { frame });
    if (this.ready) this.send(frame);
    return clientMessageId;
  }

  /**
   * Sends a file: inline up to CHAT_INLINE_MAX_BYTES, else as base64 slices of CHAT_SLICE_CHARS
   * characters, each after the ack of the previous one (`onProgress` after each). Rejects with a
   * ChatFileError: over CHAT_FILE_MAX_BYTES (nothing sent), not connected, another file still
   * going, refused by the server (`error`), or the connection lost on the way.
   */
  async sendFile(file: File, conversationId?: number, onProgress?: (sent: number, total: number) => void): Promise<ChatFileSent> {
    if (file.size > CHAT_FILE_MAX_BYTES) throw new ChatFileError('tooLarge');
    if (!this.ready) throw new ChatFileError('notConnected');
    if (this.transfer) throw new ChatFileError('busy');
    const clientMessageId = newClientMessageId();
    const base: { fileName: string; contentType: string; clientMessageId: string; conversationId?: number } = {
      fileName: file.name,
      contentType: file.type && file.type !== 'text/plain' ? file.type : 'application/octet-stream',
      clientMessageId,
      ...(conversationId ? { conversationId } : {}),
    };
    // Claimed before the file is read, so a second file cannot start meanwhile.
    const transfer: Transfer = { clientMessageId, chunkId: null, onAck: () => undefined, onError: () => undefined };
    this.transfer = transfer;
    let base64: string;
    try {
      base64 = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
    } catch (error) {
      if (this.transfer === transfer) this.transfer = null;
      throw error;
    }
    if (this.transfer !== transfer) throw new ChatFileError('interrupted');
    const total = file.size;

    const id = await new Promise<number | null>((resolve, reject) => {
      transfer.onError = (error) => {
        this.transfer = null;
        reject(error);
      };
      if (total <= CHAT_INLINE_MAX_BYTES) {
        transfer.onAck = (ackId) => {
          this.transfer = null;
          onProgress?.(total, total);
          resolve(ackId);
        };
        if (!this.send({ action: 'sendMessage', Msg: base64, ...base })) transfer.onError(new ChatFileError('interrupted'));
        return;
      }
      const slices: string[] = [];
      for (let i = 0; i < base64.length; i += CHAT_SLICE_CHARS) slices.push(base64.slice(i, i + CHAT_SLICE_CHARS));
      const sendSlice = (chunkId: number) => {
        const piece = slices[chunkId]!;
        transfer.chunkId = chunkId;
        const isEOF = chunkId === slices.length - 1;
        const sent = this.send({ action: 'sendMessage', chunkId, chunkSize: piece.length, isEOF, Msg: piece, ...base });
        if (!sent) transfer.onError(new ChatFileError('interrupted'));
      };
      transfer.onAck = (ackId) => {
        const done = transfer.chunkId!;
        onProgress?.(Math.min(total, ((done + 1) * CHAT_SLICE_CHARS * 3) / 4), total);
        if (done === slices.length - 1) {
          this.transfer = null;
          resolve(ackId);
        } else sendSlice(done + 1);
      };
      onProgress?.(0, total);
      sendSlice(0);
    });
    return { id, clientMessageId };
  }

  /** Ends the chat (staff: conversationId required). Answers whether the frame went. */
  endChat(conversationId?: number): boolean {
    return this.ready && this.send({ action: 'endChat', ...(conversationId ? { conversationId } : {}) });
  }

  /** Tells the other side this one is typing (at most every few seconds). */
  typing(conversationId?: number): void {
    const now = Date.now();
    if (!this.ready || now - this.lastTyping < TYPING_EVERY_MS) return;
    this.lastTyping = now;
    this.send({ action: 'typing', ...(conversationId ? { conversationId } : {}) });
  }

  // -------------------------------------------------------------------------------------------

  private setStatus(status: ChatConnectionStatus, closeCode?: number): void {
    this.currentStatus = status;
    this.options.onStatus(status, closeCode);
  }

  private socketBase(): string {
    return this.options.socketUrl ?? pageSocketUrl(CHAT_SOCKET_PATH);
  }

  private async open(): Promise<void> {
    let ticket: string;
    try {
      ticket = await this.options.getTicket();
    } catch (error) {
      if (this.stopped) return;
      if (isFinalTicketError(error)) {
        this.stopped = true;
        this.setStatus('closed');
      } else this.scheduleReconnect();
      return;
    }
    if (this.stopped) return;
    const Impl = this.options.WebSocketImpl ?? WebSocket;
    const query = this.reconnecting ? (this.options.reconnectQuery ?? this.options.query) : this.options.query;
    this.reconnecting = true;
    const url = chatSocketUrl(this.socketBase(), { ...query, ticket, lastMessageId: this.maxId > 0 ? this.maxId : undefined });
    let socket: WebSocket;
    try {
      socket = new Impl(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.ready = false;
    socket.onmessage = (message: globalThis.MessageEvent) => {
      if (this.socket === socket) this.receive(message.data);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket === socket) this.closed(event.code);
    };
  }

  private receive(data: unknown): void {
    const event = parseSocketEvent(data, ServerEventSchema, 'chat');
    if (!event) return;
    switch (event.type) {
      case 'welcome':
        this.welcomed();
        break;
      case 'message':
        if (this.seen.has(event.id)) return;
        this.see(event.id);
        // Our own text, stored before the ack reached us (seen again after a reconnection).
        if (event.me && event.clientMessageId) this.pending.delete(event.clientMessageId);
        break;
      case 'ack':
        if (event.id !== null) this.see(event.id);
        if (event.clientMessageId) this.pending.delete(event.clientMessageId);
        this.acked(event.clientMessageId, event.chunkId, event.id);
        break;
      case 'error':
        if (event.clientMessageId) this.pending.delete(event.clientMessageId);
        if (this.transfer && (event.clientMessageId === this.transfer.clientMessageId || (event.clientMessageId === null && event.chunkId !== null && event.chunkId === this.transfer.chunkId)))
          this.transfer.onError(new ChatFileError('refused', event.Message));
        break;
      default:
        break;
    }
    this.options.onEvent(event);
  }

  private see(id: number): void {
    this.seen.add(id);
    if (id > this.maxId) this.maxId = id;
  }

  private acked(clientMessageId: string | null, chunkId: number | null, id: number | null): void {
    const transfer = this.transfer;
    if (!transfer || clientMessageId !== transfer.clientMessageId) return;
    if (transfer.chunkId !== null && chunkId !== transfer.chunkId) return;
    transfer.onAck(id);
  }

  private welcomed(): void {
    this.ready = true;
    this.attempt = 0;
    this.setStatus('open');
    this.sendHeartbeat();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => this.sendHeartbeat(), CHAT_HEARTBEAT_MS);
    for (const { frame } of this.pending.values()) this.send(frame);
  }

  private sendHeartbeat(): void {
    this.send({ action: 'sendMessage', Msg: 'getPosition' });
  }

  private send(frame: ClientFrameInput): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WS_OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  private closed(code: number): void {
    this.socket = null;
    this.ready = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.failTransfer('interrupted');
    if (CHAT_FINAL_CLOSE_CODES.includes(code)) {
      this.stopped = true;
      this.setStatus('closed', code);
      return;
    }
    this.scheduleReconnect(code);
  }

  private scheduleReconnect(closeCode?: number): void {
    if (this.stopped) return;
    const delay = reconnectDelay(this.attempt, this.options.random ?? Math.random);
    this.attempt += 1;
    this.setStatus('reconnecting', closeCode);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.stopped) void this.open();
    }, delay);
  }

  private failTransfer(code: ChatFileErrorCode): void {
    const transfer = this.transfer;
    if (!transfer) return;
    this.transfer = null;
    transfer.onError(new ChatFileError(code));
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.retry) clearTimeout(this.retry);
    this.heartbeat = null;
    this.retry = null;
  }
}
