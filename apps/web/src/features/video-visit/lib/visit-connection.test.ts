import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VISIT_CLOSE, VISIT_FINAL_CLOSE_CODES, VISIT_SOCKET_PATH, type VisitServerEvent } from '@healthbook/shared/visit-protocol';
import { FakeSocket as BaseFakeSocket } from '../../../components/testing/fake-socket';
import { ApiError } from '../../../lib/api-client';
import { VisitConnection, type VisitConnectionStatus } from './visit-connection';

/** The visit's socket as the test plays it: accepted with the visit's welcome. */
class FakeSocket extends BaseFakeSocket {
  override accept() {
    super.accept(welcome);
  }
}

const welcome = { type: 'welcome', role: 'patient', status: 'waiting', closes_at: '2026-03-01T10:30:00.000Z' } as const;
const SLOT = 314;

function setup(random = () => 0.5) {
  const events: VisitServerEvent[] = [];
  const statuses: Array<[VisitConnectionStatus, number | undefined]> = [];
  let tickets = 0;
  const getTicket = vi.fn(async () => `visit-ticket-${++tickets}-abcdefghijklmnop`);
  const connection = new VisitConnection({
    slot: SLOT,
    getTicket,
    onEvent: (event) => events.push(event),
    onStatus: (status, code) => statuses.push([status, code]),
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    random,
  });
  return { connection, events, statuses, getTicket };
}

/** Connects and lets the server accept. */
async function connected(random?: () => number) {
  const ctx = setup(random);
  ctx.connection.connect();
  await vi.advanceTimersByTimeAsync(0);
  FakeSocket.last().accept();
  return { ...ctx, socket: FakeSocket.last() };
}

beforeEach(() => {
  FakeSocket.instances = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('VisitConnection', () => {
  it("opens the socket on the page's host with the ticket and the slot, and is open once welcomed", async () => {
    const { connection, statuses, events, getTicket } = setup();
    connection.connect();
    expect(connection.status).toBe('connecting');
    await vi.advanceTimersByTimeAsync(0);
    const socket = FakeSocket.last();
    const url = new URL(socket.url);
    expect(url.protocol).toBe(window.location.protocol === 'https:' ? 'wss:' : 'ws:');
    expect(url.host).toBe(window.location.host);
    expect(url.pathname).toBe(VISIT_SOCKET_PATH);
    expect(Object.fromEntries(url.searchParams)).toEqual({ ticket: 'visit-ticket-1-abcdefghijklmnop', slot: String(SLOT) });
    expect(getTicket).toHaveBeenCalledTimes(1);
    // Not open until the server says welcome.
    expect(connection.status).toBe('connecting');
    socket.accept();
    expect(connection.status).toBe('open');
    expect(statuses).toEqual([
      ['connecting', undefined],
      ['open', undefined],
    ]);
    expect(events).toEqual([welcome]);
  });

  it('passes valid events on and ignores those of an unknown shape, not JSON or not text', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { events, socket } = await connected();
    const peer = { type: 'peer', role: 'provider', present: true, acting_for_patient: false };
    const signal = { type: 'signal', from: 'provider', data: { description: { type: 'offer', sdp: 'v=0' } } };
    socket.emit(peer);
    socket.emit({ type: 'peer', role: 'admin', present: true, acting_for_patient: false });
    socket.emit({ type: 'signal', from: 'provider', data: { description: { type: 'bogus' } } });
    socket.emit({ type: 'surprise' });
    socket.onmessage?.({ data: '{not json' });
    socket.onmessage?.({ data: new ArrayBuffer(4) });
    socket.emit(signal);
    socket.emit({ type: 'visit', status: 'active', closes_at: '2026-03-01T10:45:00.000Z' });
    expect(events).toEqual([welcome, peer, signal, { type: 'visit', status: 'active', closes_at: '2026-03-01T10:45:00.000Z' }]);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('signal() is false while not open, and sends a signal frame once open', async () => {
    const { connection } = setup();
    const data = { candidate: { candidate: 'candidate:1 1 udp 1 192.0.2.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 } };
    expect(connection.signal(data)).toBe(false);
    connection.connect();
    await vi.advanceTimersByTimeAsync(0);
    const socket = FakeSocket.last();
    // Created, not yet open.
    expect(connection.signal(data)).toBe(false);
    socket.accept();
    expect(connection.signal(data)).toBe(true);
    expect(connection.signal({ media: { audio: false, video: true, screen: false } })).toBe(true);
    expect(socket.sent).toEqual([
      { type: 'signal', data },
      { type: 'signal', data: { media: { audio: false, video: true, screen: false } } },
    ]);
    socket.drop(1006);
    expect(connection.signal(data)).toBe(false);
    expect(socket.sent).toHaveLength(2);
  });

  it('reconnects after an unexpected close with a new ticket, backing off with full jitter, reset by a welcome', async () => {
    const { connection, statuses, getTicket, socket } = await connected();
    socket.drop(1006);
    expect(connection.status).toBe('reconnecting');
    expect(statuses.at(-1)).toEqual(['reconnecting', 1006]);
    // First delay: random (0.5) × 500 ms.
    await vi.advanceTimersByTimeAsync(249);
    expect(FakeSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(getTicket).toHaveBeenCalledTimes(2);
    expect(new URL(FakeSocket.last().url).searchParams.get('ticket')).toBe('visit-ticket-2-abcdefghijklmnop');
    expect(new URL(FakeSocket.last().url).searchParams.get('slot')).toBe(String(SLOT));
    // Dropped again before a welcome: 0.5 × 1000 ms.
    FakeSocket.last().drop(1011);
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(3);
    expect(new URL(FakeSocket.last().url).searchParams.get('ticket')).toBe('visit-ticket-3-abcdefghijklmnop');
    // Welcomed: the backoff starts again from 500 ms.
    FakeSocket.last().accept();
    expect(connection.status).toBe('open');
    FakeSocket.last().drop(1006);
    await vi.advanceTimersByTimeAsync(250);
    expect(FakeSocket.instances).toHaveLength(4);
  });

  it('caps the backoff at 8 s', async () => {
    const { socket } = await connected(() => 0.999);
    socket.drop(1006);
    for (const delay of [499, 999, 1998, 3996, 7992, 7992, 7992]) {
      const count = FakeSocket.instances.length;
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(FakeSocket.instances).toHaveLength(count);
      await vi.advanceTimersByTimeAsync(1);
      expect(FakeSocket.instances).toHaveLength(count + 1);
      FakeSocket.last().drop(1006);
    }
  });

  it('reconnects after the server restarts (1012)', async () => {
    const { connection, socket } = await connected();
    socket.drop(VISIT_CLOSE.restarting);
    expect(connection.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(250);
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it('does not reconnect after a final close code', async () => {
    expect(VISIT_FINAL_CLOSE_CODES).toEqual(expect.arrayContaining([VISIT_CLOSE.ticket, VISIT_CLOSE.forbidden, VISIT_CLOSE.notOpen, VISIT_CLOSE.ended, VISIT_CLOSE.session, VISIT_CLOSE.replaced]));
    for (const code of VISIT_FINAL_CLOSE_CODES) {
      FakeSocket.instances = [];
      const { connection, statuses, getTicket, socket } = await connected();
      socket.drop(code);
      expect(connection.status).toBe('closed');
      expect(statuses.at(-1)).toEqual(['closed', code]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(FakeSocket.instances).toHaveLength(1);
      expect(getTicket).toHaveBeenCalledTimes(1);
      expect(connection.signal({ media: { audio: true, video: true, screen: false } })).toBe(false);
    }
  });

  it('ignores what an old socket says once another took its place', async () => {
    const { connection, events, socket } = await connected();
    socket.drop(1006);
    await vi.advanceTimersByTimeAsync(250);
    const next = FakeSocket.last();
    next.accept();
    const before = events.length;
    socket.emit({ type: 'pong' });
    socket.onclose?.({ code: VISIT_CLOSE.ended });
    expect(events).toHaveLength(before);
    expect(connection.status).toBe('open');
  });

  describe('a ticket request that fails', () => {
    const cases: Array<[string, unknown, number]> = [
      ['409: the visit is not open', new ApiError(409, { detail: 'not open' }), VISIT_CLOSE.notOpen],
      ['403: not allowed', new ApiError(403, { detail: 'forbidden' }), VISIT_CLOSE.forbidden],
      ['404: no such visit', { status: 404 }, VISIT_CLOSE.forbidden],
      ['401: signed out', new ApiError(401, { detail: 'signed out' }), VISIT_CLOSE.session],
    ];
    for (const [name, error, code] of cases) {
      it(`ends it for good (${name})`, async () => {
        const { connection, statuses, getTicket } = setup();
        getTicket.mockRejectedValueOnce(error);
        connection.connect();
        await vi.advanceTimersByTimeAsync(0);
        expect(connection.status).toBe('closed');
        expect(statuses.at(-1)).toEqual(['closed', code]);
        await vi.advanceTimersByTimeAsync(60_000);
        expect(getTicket).toHaveBeenCalledTimes(1);
        expect(FakeSocket.instances).toHaveLength(0);
      });
    }

    for (const [name, error] of [
      ['a network error', new TypeError('Failed to fetch')],
      ['429: too many requests', new ApiError(429, { detail: 'slow down' })],
      ['503: unavailable', new ApiError(503, null)],
    ] as const) {
      it(`retries after the backoff (${name})`, async () => {
        const { connection, statuses, getTicket } = setup();
        getTicket.mockRejectedValueOnce(error);
        connection.connect();
        await vi.advanceTimersByTimeAsync(0);
        expect(connection.status).toBe('reconnecting');
        expect(statuses.at(-1)).toEqual(['reconnecting', undefined]);
        expect(FakeSocket.instances).toHaveLength(0);
        await vi.advanceTimersByTimeAsync(250);
        expect(getTicket).toHaveBeenCalledTimes(2);
        expect(FakeSocket.instances).toHaveLength(1);
        expect(new URL(FakeSocket.last().url).searchParams.get('ticket')).toBe('visit-ticket-1-abcdefghijklmnop');
      });
    }
  });

  it('reconnects when the socket cannot even be created', async () => {
    let throwOnce = true;
    class Throwing extends FakeSocket {
      constructor(url: string) {
        if (throwOnce) {
          throwOnce = false;
          throw new SyntaxError('bad url');
        }
        super(url);
      }
    }
    const connection = new VisitConnection({ slot: SLOT, getTicket: async () => 'visit-ticket-abcdefghijklmnop', onEvent: () => undefined, onStatus: () => undefined, WebSocketImpl: Throwing as unknown as typeof WebSocket, random: () => 0 });
    connection.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  describe('close()', () => {
    it('closes the socket for good: no reconnection, not even on its close event', async () => {
      const { connection, statuses, getTicket, socket } = await connected();
      connection.close();
      expect(socket.closedWith).toBe(1000);
      expect(connection.status).toBe('closed');
      expect(statuses.at(-1)).toEqual(['closed', undefined]);
      // The browser's close event comes later.
      socket.onclose?.({ code: 1000 });
      socket.emit({ type: 'pong' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(FakeSocket.instances).toHaveLength(1);
      expect(getTicket).toHaveBeenCalledTimes(1);
      expect(connection.status).toBe('closed');
      expect(connection.signal({ media: { audio: true, video: true, screen: false } })).toBe(false);
    });

    it('cancels a reconnection that was waiting', async () => {
      const { connection, getTicket, socket } = await connected();
      socket.drop(1006);
      connection.close();
      expect(connection.status).toBe('closed');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(getTicket).toHaveBeenCalledTimes(1);
      expect(FakeSocket.instances).toHaveLength(1);
    });

    it('opens no socket when the ticket comes after it', async () => {
      const { connection, statuses, getTicket } = setup();
      let resolve!: (ticket: string) => void;
      getTicket.mockImplementationOnce(() => new Promise<string>((r) => (resolve = r)));
      connection.connect();
      await vi.advanceTimersByTimeAsync(0);
      connection.close();
      resolve('visit-ticket-late-abcdefghijklmnop');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(FakeSocket.instances).toHaveLength(0);
      expect(statuses.at(-1)).toEqual(['closed', undefined]);
    });

    it('stays closed when the ticket request fails after it', async () => {
      const { connection, statuses, getTicket } = setup();
      let reject!: (error: unknown) => void;
      getTicket.mockImplementationOnce(() => new Promise<string>((_, r) => (reject = r)));
      connection.connect();
      await vi.advanceTimersByTimeAsync(0);
      connection.close();
      reject(new TypeError('Failed to fetch'));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(getTicket).toHaveBeenCalledTimes(1);
      expect(statuses.at(-1)).toEqual(['closed', undefined]);
    });
  });
});
