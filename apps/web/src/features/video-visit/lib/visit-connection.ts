import { VISIT_CLOSE, VISIT_FINAL_CLOSE_CODES, VISIT_SOCKET_PATH, VisitServerEventSchema, type SignalData, type VisitServerEvent } from '@healthbook/shared/visit-protocol';
import { backoffDelay, isFinalTicketError, pageSocketUrl, parseSocketEvent } from '../../../lib/socket-client';

/**
 * The video visit's signalling socket (packages/shared visit-protocol.ts), without React. Every
 * socket, the first and each reconnection, opens with a fresh single-use ticket; a close with a
 * final code (ended, refused, replaced by another tab, signed out) ends it, any other reconnects
 * after a jittered backoff. Only signals go out; what the server says comes back as events, each
 * checked against the protocol's schema.
 */

export type VisitConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

const RECONNECT_BASE_MS = 500;
const RECONNECT_MAX_MS = 8_000;
const WS_OPEN = 1;

export interface VisitConnectionOptions {
  slot: number;
  /** POST …/visit/ticket/: a fresh ticket for each socket. */
  getTicket: () => Promise<string>;
  onEvent: (event: VisitServerEvent) => void;
  /** `closeCode` with 'closed' (and 'reconnecting'): why the socket closed. */
  onStatus: (status: VisitConnectionStatus, closeCode?: number) => void;
  /** Tests: a fake WebSocket, and a fixed random for the backoff. */
  WebSocketImpl?: typeof WebSocket;
  random?: () => number;
}

/** A ticket refused for good, as the close code the socket would have given: not open (409), not allowed (403, 404), signed out (401). */
function closeForTicketError(error: unknown): number {
  const status = (error as { status?: unknown }).status;
  if (status === 409) return VISIT_CLOSE.notOpen;
  if (status === 401) return VISIT_CLOSE.session;
  return VISIT_CLOSE.forbidden;
}

export class VisitConnection {
  private socket: WebSocket | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private attempt = 0;
  private stopped = false;
  private currentStatus: VisitConnectionStatus = 'connecting';

  constructor(private readonly options: VisitConnectionOptions) {}

  get status(): VisitConnectionStatus {
    return this.currentStatus;
  }

  connect(): void {
    this.stopped = false;
    this.setStatus('connecting');
    void this.open();
  }

  /** Closes for good. */
  close(): void {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= WS_OPEN) socket.close(1000);
    this.setStatus('closed');
  }

  /** Sends a signal to the other side; false when the socket is not open (the caller renegotiates once it is). */
  signal(data: SignalData): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== WS_OPEN) return false;
    socket.send(JSON.stringify({ type: 'signal', data }));
    return true;
  }

  private setStatus(status: VisitConnectionStatus, closeCode?: number): void {
    this.currentStatus = status;
    this.options.onStatus(status, closeCode);
  }

  private async open(): Promise<void> {
    let ticket: string;
    try {
      ticket = await this.options.getTicket();
    } catch (error) {
      if (this.stopped) return;
      if (isFinalTicketError(error)) {
        this.stopped = true;
        this.setStatus('closed', closeForTicketError(error));
      } else this.scheduleReconnect();
      return;
    }
    if (this.stopped) return;
    const Impl = this.options.WebSocketImpl ?? WebSocket;
    const url = `${pageSocketUrl(VISIT_SOCKET_PATH)}?${new URLSearchParams({ ticket, slot: String(this.options.slot) }).toString()}`;
    let socket: WebSocket;
    try {
      socket = new Impl(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onmessage = (message: MessageEvent) => {
      if (this.socket === socket) this.receive(message.data);
    };
    socket.onclose = (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (VISIT_FINAL_CLOSE_CODES.includes(event.code)) {
        this.stopped = true;
        this.setStatus('closed', event.code);
      } else this.scheduleReconnect(event.code);
    };
  }

  private receive(data: unknown): void {
    const event = parseSocketEvent(data, VisitServerEventSchema, 'visit');
    if (!event) return;
    if (event.type === 'welcome') {
      this.attempt = 0;
      this.setStatus('open');
    }
    this.options.onEvent(event);
  }

  private scheduleReconnect(closeCode?: number): void {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt, this.options.random ?? Math.random, RECONNECT_BASE_MS, RECONNECT_MAX_MS);
    this.attempt += 1;
    this.setStatus('reconnecting', closeCode);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (!this.stopped) void this.open();
    }, delay);
  }
}
