import WebSocket from 'ws';
import {
  VISIT_SOCKET_PATH,
  VisitServerEventSchema,
  chatSocketUrl,
  ServerEventSchema,
  type ClientFrameInput,
  type ServerEvent,
  type VisitClientFrame,
  type VisitServerEvent,
} from '@healthbook/shared';

/**
 * A socket as a test drives it: every event the server sends is validated against the protocol's
 * schema and queued; `next` waits for the first one that matches. The chat's (TestChatSocket) and
 * the video visit's (TestVisitSocket) are this one with their own protocol.
 */
export class TestSocket<E extends { type: string }, F = Record<string, unknown>> {
  readonly events: E[] = [];
  private waiters: Array<{ match: (e: E) => boolean; resolve: (e: E) => void }> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  /** The HTTP status when the upgrade was refused. */
  refusedWith: number | null = null;

  constructor(
    readonly ws: WebSocket,
    parse: (value: unknown) => E,
  ) {
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.opened = new Promise((resolve, reject) => {
      ws.on('open', () => resolve());
      ws.on('unexpected-response', (_req, res) => {
        this.refusedWith = res.statusCode ?? null;
        reject(new Error(`upgrade refused: ${res.statusCode}`));
        ws.terminate();
      });
      ws.on('error', reject);
    });
    this.opened.catch(() => undefined);
    ws.on('message', (data) => {
      const event = parse(JSON.parse(data.toString()));
      const waiter = this.waiters.find((w) => w.match(event));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(event);
      } else {
        this.events.push(event);
      }
    });
  }

  /** The first event (already received or to come) that matches, within `ms`. */
  next<T extends E['type']>(type: T, match: (e: Extract<E, { type: T }>) => boolean = () => true, ms = 5000): Promise<Extract<E, { type: T }>> {
    const test = (e: E) => e.type === type && match(e as Extract<E, { type: T }>);
    const at = this.events.findIndex(test);
    if (at >= 0) return Promise.resolve(this.events.splice(at, 1)[0] as Extract<E, { type: T }>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} event within ${ms} ms; got ${JSON.stringify(this.events.map((e) => e.type))}`)), ms);
      this.waiters.push({
        match: test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e as Extract<E, { type: T }>);
        },
      });
    });
  }

  /** The first event of any of these types. */
  nextOf(types: Array<E['type']>, ms = 5000): Promise<E> {
    const test = (e: E) => types.includes(e.type);
    const at = this.events.findIndex(test);
    if (at >= 0) return Promise.resolve(this.events.splice(at, 1)[0]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${types.join('/')} event within ${ms} ms`)), ms);
      this.waiters.push({
        match: test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  /** Drops what was received so far. */
  clear(): void {
    this.events.length = 0;
  }

  send(frame: F | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  close(): void {
    this.ws.close();
  }
}

export class TestChatSocket extends TestSocket<ServerEvent, ClientFrameInput> {
  constructor(ws: WebSocket) {
    super(ws, (value) => ServerEventSchema.parse(value));
  }

  static open(base: string, query: Record<string, string | number | boolean | undefined>, headers: Record<string, string> = {}): TestChatSocket {
    return new TestChatSocket(new WebSocket(chatSocketUrl(`${base.replace(/^http/, 'ws')}/api/v1/chat/socket/`, query), { headers }));
  }
}

export class TestVisitSocket extends TestSocket<VisitServerEvent, VisitClientFrame> {
  constructor(ws: WebSocket) {
    super(ws, (value) => VisitServerEventSchema.parse(value));
  }

  static open(base: string, query: { ticket: string; slot: number }, headers: Record<string, string> = {}): TestVisitSocket {
    return new TestVisitSocket(new WebSocket(chatSocketUrl(`${base.replace(/^http/, 'ws')}${VISIT_SOCKET_PATH}`, query), { headers }));
  }
}
