// The patient's side of a live chat as the journeys drive it: a socket opened the way the
// patient's client opens it (a single-use ticket from REST, the chat's details as the query),
// every server event validated against the protocol and kept until a journey waits for it.
// (apps/server/test/chat-client.ts does the same for the server's tests, but imports the
// shared package's root, whose JSON catalogs Playwright's loader cannot import.)
import WebSocket from 'ws';
import { chatSocketUrl, ServerEventSchema, type ClientFrameInput, type ServerEvent } from '@healthbook/shared/chat-protocol';
import { CHAT_SOCKET_PATH } from '@healthbook/shared/chat';

export class PatientChatSocket {
  private readonly events: ServerEvent[] = [];
  private waiters: Array<{ match: (e: ServerEvent) => boolean; resolve: (e: ServerEvent) => void }> = [];
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number }>;

  private constructor(private readonly ws: WebSocket) {
    this.opened = new Promise((resolve, reject) => {
      ws.on('open', () => resolve());
      ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      ws.on('error', reject);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve({ code })));
    ws.on('message', (data) => {
      const event = ServerEventSchema.parse(JSON.parse(data.toString()));
      const waiter = this.waiters.find((w) => w.match(event));
      if (waiter) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(event);
      } else this.events.push(event);
    });
  }

  /** Opens the socket on the journeys' server; the Origin is the product's own, as in a browser. */
  static open(baseUrl: string, query: Record<string, string | number | boolean | undefined>): PatientChatSocket {
    const url = chatSocketUrl(`${baseUrl.replace(/^http/, 'ws')}${CHAT_SOCKET_PATH}`, query);
    return new PatientChatSocket(new WebSocket(url, { headers: { origin: baseUrl } }));
  }

  /** The first event of a type (received already, or to come within `ms`) that matches. */
  next<T extends ServerEvent['type']>(type: T, match: (e: Extract<ServerEvent, { type: T }>) => boolean = () => true, ms = 10_000): Promise<Extract<ServerEvent, { type: T }>> {
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

  send(frame: ClientFrameInput): void {
    this.ws.send(JSON.stringify(frame));
  }

  close(): void {
    this.ws.close();
  }
}
