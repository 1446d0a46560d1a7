import WebSocket from 'ws';
import { chatSocketUrl, ServerEventSchema, type ClientFrameInput, type ServerEvent } from '@healthbook/shared';

/**
 * A chat socket as a test drives it: every event the server sends is validated against the
 * protocol's schema and queued; `next` waits for the first one that matches.
 */
export class TestChatSocket {
  readonly events: ServerEvent[] = [];
  private waiters: Array<{ match: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void }> = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  /** The HTTP status when the upgrade was refused. */
  refusedWith: number | null = null;

  constructor(readonly ws: WebSocket) {
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
      const event = ServerEventSchema.parse(JSON.parse(data.toString()));
      const waiter = this.waiters.find((w) => w.match(event));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(event);
      } else {
        this.events.push(event);
      }
    });
  }

  static open(base: string, query: Record<string, string | number | boolean | undefined>, headers: Record<string, string> = {}): TestChatSocket {
    return new TestChatSocket(new WebSocket(chatSocketUrl(`${base.replace(/^http/, 'ws')}/api/v1/chat/socket/`, query), { headers }));
  }

  /** The first event (already received or to come) that matches, within `ms`. */
  next<T extends ServerEvent['type']>(type: T, match: (e: Extract<ServerEvent, { type: T }>) => boolean = () => true, ms = 5000): Promise<Extract<ServerEvent, { type: T }>> {
    const test = (e: ServerEvent) => e.type === type && match(e as Extract<ServerEvent, { type: T }>);
    const at = this.events.findIndex(test);
    if (at >= 0) return Promise.resolve(this.events.splice(at, 1)[0] as Extract<ServerEvent, { type: T }>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} event within ${ms} ms; got ${JSON.stringify(this.events.map((e) => e.type))}`)), ms);
      this.waiters.push({
        match: test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e as Extract<ServerEvent, { type: T }>);
        },
      });
    });
  }

  /** The first event of any of these types. */
  nextOf(types: Array<ServerEvent['type']>, ms = 5000): Promise<ServerEvent> {
    const test = (e: ServerEvent) => types.includes(e.type);
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

  send(frame: ClientFrameInput | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(frame));
  }

  sendRaw(data: string | Buffer): void {
    this.ws.send(data);
  }

  close(): void {
    this.ws.close();
  }
}
