import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHAT_CLOSE, CHAT_FILE_MAX_BYTES, CHAT_HEARTBEAT_MS, CHAT_RECONNECT_BASE_MS, CHAT_SLICE_CHARS } from '@healthbook/shared/chat';
import type { ServerEvent } from '@healthbook/shared/chat-protocol';
import { FakeSocket as BaseFakeSocket } from '../../../components/testing/fake-socket';
import { bytesToBase64, ChatConnection, ChatFileError, type ChatConnectionStatus, reconnectDelay } from './chat-connection';

/** The chat's socket as the test plays it: its welcome, and the frames the client sent by kind. */
class FakeSocket extends BaseFakeSocket {
  override accept() {
    super.accept({ type: 'welcome', role: 'patient', userId: 5, conversations: [] });
  }
  frames(kind: 'text' | 'slice' | 'file' | 'heartbeat') {
    return this.sent.filter((f) =>
      kind === 'slice' ? f.chunkId !== undefined : kind === 'file' ? f.fileName !== undefined && f.chunkId === undefined : kind === 'heartbeat' ? f.Msg === 'getPosition' : f.contentType === 'text/plain' && f.Msg !== 'getPosition',
    );
  }
}

const message = (id: number, overrides: Partial<Record<string, unknown>> = {}) => ({
  type: 'message',
  id,
  conversationId: 9,
  Message: `message ${id}`,
  SenderName: 'Coach Carla',
  ProviderType: 'coach',
  contentType: 'text/plain',
  me: false,
  sentAt: '2026-03-01T10:00:00.000Z',
  kind: 'text',
  file: null,
  clientMessageId: null,
  ...overrides,
});
const ack = (clientMessageId: string, chunkId: number | null, id: number | null) => ({ type: 'ack', received: 'ok', conversationId: 9, chunkId, id, clientMessageId });

function setup() {
  const events: ServerEvent[] = [];
  const statuses: Array<[ChatConnectionStatus, number | undefined]> = [];
  let tickets = 0;
  const getTicket = vi.fn(async () => `ticket-number-${++tickets}-abcdefghijklmnop`);
  const connection = new ChatConnection({
    role: 'patient',
    query: { userId: 5, isPatient: true, reason: 'stress', providerType: 'coach', credential: 'c-1', patientId: 5, orgName: 'healthbook' },
    socketUrl: 'wss://chat.example/api/v1/chat/socket/',
    getTicket,
    onEvent: (event) => events.push(event),
    onStatus: (status, code) => statuses.push([status, code]),
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    random: () => 0.5,
  });
  return { connection, events, statuses, getTicket };
}

/** Connects and lets the server accept. */
async function connected() {
  const ctx = setup();
  ctx.connection.connect();
  await vi.advanceTimersByTimeAsync(0);
  FakeSocket.last().accept();
  return { ...ctx, socket: FakeSocket.last() };
}

const fileOf = (size: number, name: string, type: string) => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + 3) % 256;
  return { file: new File([bytes], name, { type }), base64: bytesToBase64(bytes) };
};

beforeEach(() => {
  FakeSocket.instances = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ChatConnection', () => {
  it('opens the socket with a ticket and the query, then sends the heartbeat at once and every 20 s', async () => {
    const { connection, statuses, socket } = await connected();
    const url = new URL(socket.url);
    expect(url.origin + url.pathname).toBe('wss://chat.example/api/v1/chat/socket/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      userId: '5',
      isPatient: 'true',
      reason: 'stress',
      providerType: 'coach',
      credential: 'c-1',
      patientId: '5',
      orgName: 'healthbook',
      ticket: 'ticket-number-1-abcdefghijklmnop',
    });
    expect(statuses.map(([s]) => s)).toEqual(['connecting', 'open']);
    expect(connection.status).toBe('open');
    expect(socket.frames('heartbeat')).toHaveLength(1);
    expect(socket.sent[0]).toEqual({ action: 'sendMessage', Msg: 'getPosition' });
    await vi.advanceTimersByTimeAsync(CHAT_HEARTBEAT_MS * 2);
    expect(socket.frames('heartbeat')).toHaveLength(3);
  });

  it('ignores an empty or whitespace-only text and trims the rest', async () => {
    const { connection, socket } = await connected();
    expect(connection.sendText('')).toBeNull();
    expect(connection.sendText('   \n\t ')).toBeNull();
    expect(socket.frames('text')).toHaveLength(0);
    const id = connection.sendText('  hello there \n');
    expect(id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(socket.frames('text')).toEqual([{ action: 'sendMessage', Msg: 'hello there', contentType: 'text/plain', clientMessageId: id }]);
  });

  it('gives the conversation id when one is named (the staff side)', async () => {
    const { connection, socket } = await connected();
    connection.sendText('hi', 42);
    connection.endChat(42);
    expect(socket.sent.slice(-2)).toEqual([
      expect.objectContaining({ Msg: 'hi', conversationId: 42 }),
      { action: 'endChat', conversationId: 42 },
    ]);
  });

  it('sends a file of at most 32,000 bytes inline and resolves with the stored message id on its ack', async () => {
    const { connection, socket } = await connected();
    const { file, base64 } = fileOf(32_000, 'photo.png', 'image/png');
    const progress = vi.fn();
    const sending = connection.sendFile(file, undefined, progress);
    await vi.advanceTimersByTimeAsync(0);
    const frames = socket.frames('file');
    expect(frames).toHaveLength(1);
    expect(socket.frames('slice')).toHaveLength(0);
    expect(frames[0]).toEqual({ action: 'sendMessage', Msg: base64, fileName: 'photo.png', contentType: 'image/png', clientMessageId: expect.any(String) });
    socket.emit(ack(frames[0]!.clientMessageId as string, null, 77));
    await expect(sending).resolves.toEqual({ id: 77, clientMessageId: frames[0]!.clientMessageId });
    expect(progress).toHaveBeenLastCalledWith(32_000, 32_000);
    expect(connection.lastMessageId).toBe(77);
  });

  it('sends a larger file in 32,000-character slices, in order, each after the ack of the one before, the last flagged isEOF', async () => {
    const { connection, socket } = await connected();
    const { file, base64 } = fileOf(100_000, 'report.pdf', 'application/pdf');
    const progress = vi.fn();
    const sending = connection.sendFile(file, undefined, progress);
    await vi.advanceTimersByTimeAsync(0);
    const expectedSlices = Math.ceil(base64.length / CHAT_SLICE_CHARS);
    expect(expectedSlices).toBe(5);
    for (let chunkId = 0; chunkId < expectedSlices; chunkId++) {
      const slices = socket.frames('slice');
      // Only one slice waits for its ack at a time.
      expect(slices).toHaveLength(chunkId + 1);
      const slice = slices[chunkId]!;
      const piece = base64.slice(chunkId * CHAT_SLICE_CHARS, (chunkId + 1) * CHAT_SLICE_CHARS);
      expect(slice).toEqual({
        action: 'sendMessage',
        chunkId,
        chunkSize: piece.length,
        isEOF: chunkId === expectedSlices - 1,
        Msg: piece,
        fileName: 'report.pdf',
        contentType: 'application/pdf',
        clientMessageId: slices[0]!.clientMessageId,
      });
      // An ack of another slice does not move the transfer on.
      socket.emit(ack(slice.clientMessageId as string, chunkId + 10, null));
      expect(socket.frames('slice')).toHaveLength(chunkId + 1);
      socket.emit(ack(slice.clientMessageId as string, chunkId, chunkId === expectedSlices - 1 ? 120 : null));
    }
    await expect(sending).resolves.toMatchObject({ id: 120 });
    const slices = socket.frames('slice');
    expect(slices.map((s) => s.Msg).join('')).toBe(base64);
    expect(slices.every((s) => (s.Msg as string).length <= CHAT_SLICE_CHARS)).toBe(true);
    expect(slices.filter((s) => s.isEOF)).toHaveLength(1);
    expect(progress).toHaveBeenLastCalledWith(100_000, 100_000);
    expect(progress.mock.calls.map(([sent]) => sent as number)).toEqual([0, 24_000, 48_000, 72_000, 96_000, 100_000]);
  });

  it('refuses a file over 5,242,880 bytes and sends nothing', async () => {
    const { connection, socket } = await connected();
    const before = socket.sent.length;
    const { file } = fileOf(CHAT_FILE_MAX_BYTES + 1, 'scan.pdf', 'application/pdf');
    await expect(connection.sendFile(file)).rejects.toMatchObject({ name: 'ChatFileError', code: 'tooLarge' });
    expect(socket.sent.length).toBe(before);
    // Exactly 5 MB is allowed.
    const { file: limit } = fileOf(CHAT_FILE_MAX_BYTES, 'scan.pdf', 'application/pdf');
    void connection.sendFile(limit).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(socket.frames('slice')).toHaveLength(1);
  });

  it('rejects a file the server refuses with its words, and one sent while another is still going', async () => {
    const { connection, socket } = await connected();
    const first = connection.sendFile(fileOf(40_000, 'a.pdf', 'application/pdf').file);
    const second = connection.sendFile(fileOf(10, 'b.png', 'image/png').file);
    await expect(second).rejects.toMatchObject({ code: 'busy' });
    await vi.advanceTimersByTimeAsync(0);
    const slice = socket.frames('slice')[0]!;
    socket.emit({ type: 'error', code: 'fileType', Message: 'Only PDF and image files can be sent.', clientMessageId: slice.clientMessageId, chunkId: 0 });
    const error = (await first.catch((e: unknown) => e)) as ChatFileError;
    expect(error).toBeInstanceOf(ChatFileError);
    expect(error.code).toBe('refused');
    expect(error.serverMessage).toBe('Only PDF and image files can be sent.');
  });

  it('does not send a file while not connected', async () => {
    const { connection } = setup();
    await expect(connection.sendFile(fileOf(10, 'b.png', 'image/png').file)).rejects.toMatchObject({ code: 'notConnected' });
  });

  it('reconnects after an unexpected close with a new ticket and lastMessageId, backing off with full jitter', async () => {
    const { connection, statuses, getTicket, socket } = await connected();
    socket.emit(message(3));
    socket.emit(message(8));
    socket.drop(1006);
    expect(connection.status).toBe('reconnecting');
    expect(statuses.at(-1)).toEqual(['reconnecting', 1006]);
    // First delay: random (0.5) × 500 ms.
    await vi.advanceTimersByTimeAsync(CHAT_RECONNECT_BASE_MS * 0.5 - 1);
    expect(FakeSocket.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(2);
    expect(getTicket).toHaveBeenCalledTimes(2);
    const url = new URL(FakeSocket.last().url);
    expect(url.searchParams.get('ticket')).toBe('ticket-number-2-abcdefghijklmnop');
    expect(url.searchParams.get('lastMessageId')).toBe('8');
    // A second failure waits longer (random × 1000 ms); once welcomed, the count starts again.
    FakeSocket.last().drop(1011);
    await vi.advanceTimersByTimeAsync(499);
    expect(FakeSocket.instances).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.instances).toHaveLength(3);
    FakeSocket.last().accept();
    expect(connection.status).toBe('open');
  });

  it('reconnects with the reconnection query when one is given (the patient\'s without reason and providerType)', async () => {
    const connection = new ChatConnection({
      role: 'patient',
      query: { userId: 5, isPatient: true, reason: 'stress', providerType: 'coach' },
      reconnectQuery: { userId: 5, isPatient: true },
      getTicket: async () => 'ticket-abcdefghijklmnopqrstuvwxyz',
      onEvent: () => undefined,
      onStatus: () => undefined,
      socketUrl: 'wss://chat.example/socket/',
      WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
      random: () => 0,
    });
    connection.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(new URL(FakeSocket.last().url).searchParams.get('reason')).toBe('stress');
    FakeSocket.last().drop(1006);
    await vi.advanceTimersByTimeAsync(0);
    const params = new URL(FakeSocket.last().url).searchParams;
    expect(FakeSocket.instances).toHaveLength(2);
    expect(params.get('reason')).toBeNull();
    expect(params.get('providerType')).toBeNull();
    expect(params.get('userId')).toBe('5');
  });

  it('computes the backoff: exponential from 500 ms, capped at 15 s, times the jitter', () => {
    expect(reconnectDelay(0, () => 0.999)).toBe(499);
    expect(reconnectDelay(3, () => 0.5)).toBe(2000);
    expect(reconnectDelay(10, () => 0.5)).toBe(7500);
    expect(reconnectDelay(10, () => 0)).toBe(0);
  });

  it('sends texts not yet acknowledged again after a reconnection, once, with the same clientMessageId', async () => {
    const { connection, socket } = await connected();
    const acked = connection.sendText('first')!;
    const lost = connection.sendText('second')!;
    socket.emit(ack(acked, null, 11));
    socket.drop(1006);
    // Typed while reconnecting: goes once the new socket is ready.
    const later = connection.sendText('third')!;
    await vi.advanceTimersByTimeAsync(CHAT_RECONNECT_BASE_MS);
    const next = FakeSocket.last();
    expect(next).not.toBe(socket);
    expect(next.sent).toHaveLength(0);
    next.accept();
    expect(next.frames('text').map((f) => [f.Msg, f.clientMessageId])).toEqual([
      ['second', lost],
      ['third', later],
    ]);
    next.emit(ack(lost, null, 12));
    next.emit(ack(later, null, 13));
    // A further reconnection sends nothing again.
    next.drop(1006);
    await vi.advanceTimersByTimeAsync(CHAT_RECONNECT_BASE_MS);
    FakeSocket.last().accept();
    expect(FakeSocket.last().frames('text')).toHaveLength(0);
    expect(new URL(FakeSocket.last().url).searchParams.get('lastMessageId')).toBe('13');
  });

  it('forgets a pending text when the server replays it as stored (me, same clientMessageId)', async () => {
    const { connection, socket } = await connected();
    const id = connection.sendText('hello')!;
    socket.drop(1006);
    await vi.advanceTimersByTimeAsync(CHAT_RECONNECT_BASE_MS);
    const next = FakeSocket.last();
    next.readyState = 1;
    next.emit(message(4, { me: true, clientMessageId: id, Message: 'hello' }));
    next.emit({ type: 'welcome', role: 'patient', userId: 5, conversations: [] });
    expect(next.frames('text')).toHaveLength(0);
  });

  it('passes each message on once: a message id already seen is dropped', async () => {
    const { events, socket } = await connected();
    socket.emit(message(1));
    socket.emit(message(2));
    socket.emit(message(1));
    socket.emit(message(2, { Message: 'again' }));
    socket.emit(message(3));
    expect(events.filter((e) => e.type === 'message').map((e) => (e.type === 'message' ? e.id : 0))).toEqual([1, 2, 3]);
  });

  it('ignores events that are not JSON or not of the protocol', async () => {
    const { events, socket } = await connected();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    socket.onmessage?.({ data: 'not json' });
    socket.emit({ type: 'position', conversationId: 9 });
    socket.emit({ type: 'position', conversationId: 9, Position: 2 });
    expect(events.map((e) => e.type)).toEqual(['welcome', 'position']);
    warn.mockRestore();
  });

  it('does not reconnect after a final close code', async () => {
    for (const code of [CHAT_CLOSE.ended, CHAT_CLOSE.ticket, CHAT_CLOSE.noChat, CHAT_CLOSE.session, CHAT_CLOSE.forbidden]) {
      FakeSocket.instances = [];
      const { connection, statuses, getTicket, socket } = await connected();
      socket.drop(code);
      expect(connection.status).toBe('closed');
      expect(statuses.at(-1)).toEqual(['closed', code]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(FakeSocket.instances).toHaveLength(1);
      expect(getTicket).toHaveBeenCalledTimes(1);
    }
  });

  it('reconnects after the server restarts (1012)', async () => {
    const { connection, socket } = await connected();
    socket.drop(CHAT_CLOSE.restarting);
    expect(connection.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(CHAT_RECONNECT_BASE_MS);
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it('close() closes the socket for good: no reconnection, no heartbeat, a file on its way fails', async () => {
    const { connection, socket } = await connected();
    const sending = connection.sendFile(fileOf(40_000, 'a.pdf', 'application/pdf').file);
    await vi.advanceTimersByTimeAsync(0);
    connection.close();
    await expect(sending).rejects.toMatchObject({ code: 'interrupted' });
    expect(socket.closedWith).toBe(1000);
    expect(connection.status).toBe('closed');
    const sent = socket.sent.length;
    await vi.advanceTimersByTimeAsync(CHAT_HEARTBEAT_MS * 3);
    expect(socket.sent.length).toBe(sent);
    expect(FakeSocket.instances).toHaveLength(1);
  });

  it('a ticket refused for good (4xx) closes; a network failure retries', async () => {
    const first = setup();
    first.getTicket.mockRejectedValueOnce(Object.assign(new Error('Forbidden'), { status: 403 }));
    first.connection.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(first.connection.status).toBe('closed');
    const second = setup();
    second.getTicket.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    second.connection.connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(second.connection.status).toBe('reconnecting');
    await vi.advanceTimersByTimeAsync(CHAT_RECONNECT_BASE_MS);
    expect(second.getTicket).toHaveBeenCalledTimes(2);
  });
});
