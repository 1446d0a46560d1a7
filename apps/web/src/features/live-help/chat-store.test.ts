import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHAT_CLOSE, CHAT_FILE_MAX_BYTES, CHAT_IDLE_END_MS, CHAT_IDLE_PROMPT_MS, CHAT_WAIT_TIMEOUT_MS } from '@healthbook/shared/chat';
import type { ServerEvent } from '@healthbook/shared/chat-protocol';
import type { ChatTranscript } from '@healthbook/shared/contracts/chat';
import { createChatStore, type ChatStoreDeps } from './chat-store';
import type { ChatConnectionOptions } from './lib/chat-connection';
import { chatDetails } from './test-fixtures';

const details = chatDetails;

const message = (id: number, extra: Record<string, unknown> = {}) =>
  ({
    type: 'message',
    id,
    conversationId: 9,
    Message: `message ${id}`,
    SenderName: 'Sofia Antoniou',
    ProviderType: 'coach',
    contentType: 'text/plain',
    me: false,
    sentAt: '2026-03-01T10:05:00.000Z',
    kind: 'text',
    file: null,
    clientMessageId: null,
    ...extra,
  }) as ServerEvent;

const started: ServerEvent = {
  type: 'started',
  conversationId: 9,
  provider_name: 'Sofia Antoniou',
  provider_type: 'coach',
  patient_name: 'Maria Papadopoulou',
  patient_id: 5,
  reason_for_visit: 'Stress or anxiety',
  startedAt: '2026-03-01T10:05:00.000Z',
};

function setup(extra: Partial<ChatStoreDeps> = {}) {
  const sockets: Array<{ options: ChatConnectionOptions; connection: ReturnType<typeof fakeConnection> }> = [];
  let ids = 0;
  const fakeConnection = () => ({
    connect: vi.fn(),
    close: vi.fn(),
    sendText: vi.fn((text: string) => (text.trim() ? `client-id-${++ids}` : null)),
    sendFile: vi.fn(async (file: File) => ({ id: 50, clientMessageId: `client-file-${file.name}` })),
    endChat: vi.fn(() => true),
    typing: vi.fn(),
  });
  const deps: ChatStoreDeps = {
    createConnection: (options) => {
      const connection = fakeConnection();
      sockets.push({ options, connection });
      return connection;
    },
    getTicket: vi.fn(async () => 'ticket'),
    endChat: vi.fn(async () => ({})),
    getCurrentChat: vi.fn(async () => null),
    getTranscript: vi.fn(async (): Promise<ChatTranscript> => {
      throw new Error('no transcript');
    }),
    ...extra,
  };
  const store = createChatStore(deps);
  const socket = () => sockets[sockets.length - 1]!;
  /** The server sends an event on the current socket. */
  const emit = (event: ServerEvent) => socket().options.onEvent(event);
  return { store, deps, sockets, socket, emit };
}

beforeEach(() => {
  vi.useFakeTimers();
  sessionStorage.clear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the chat store', () => {
  it('joining opens the dialog on the Wait screen and connects with the patient query', async () => {
    const { store, socket } = setup();
    await store.start(details());
    const state = store.getState();
    expect(state).toMatchObject({ component: 'wait', dialogOpen: true, minimised: false, providerResponse: true });
    expect(state.chatDetails?.Position).toBe(1);
    expect(socket().options.query).toEqual({
      userId: 5,
      isPatient: true,
      reason: 'stress',
      providerType: 'coach',
      credential: 'cred-5',
      patientId: 5,
      orgName: 'healthbook',
    });
    expect(socket().connection.connect).toHaveBeenCalledOnce();
  });

  it('in Wait, 10 minutes without activity: the provider-response flag goes false, the connection closes and the server drops the patient from the queue', async () => {
    const { store, deps, socket } = setup();
    await store.start(details());
    await vi.advanceTimersByTimeAsync(CHAT_WAIT_TIMEOUT_MS - 1);
    expect(store.getState().providerResponse).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState()).toMatchObject({ providerResponse: false, ended: true, component: 'wait' });
    expect(socket().connection.close).toHaveBeenCalled();
    expect(deps.endChat).toHaveBeenCalledWith(9);
  });

  it('a change of the queue position restarts the wait; the same position answered to the heartbeat does not', async () => {
    const { store, emit } = setup();
    await store.start(details({ position: 2 }));
    await vi.advanceTimersByTimeAsync(CHAT_WAIT_TIMEOUT_MS - 1000);
    emit({ type: 'position', conversationId: 9, Position: 1 });
    expect(store.getState().chatDetails?.Position).toBe(1);
    await vi.advanceTimersByTimeAsync(CHAT_WAIT_TIMEOUT_MS - 1000);
    expect(store.getState().providerResponse).toBe(true);
    emit({ type: 'position', conversationId: 9, Position: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().providerResponse).toBe(false);
  });

  it('the provider taking the patient opens the Chat screen with the provider, and the greeting is shown; the wait timer is cleared', async () => {
    const { store, emit } = setup();
    await store.start(details());
    store.toggleMinimised();
    await vi.advanceTimersByTimeAsync(CHAT_WAIT_TIMEOUT_MS - 1000);
    emit(started);
    emit(message(1, { kind: 'greeting', Message: 'Hello Maria, I’m Sofia Antoniou, your Peer coach. How can I help you today?' }));
    const state = store.getState();
    expect(state).toMatchObject({ component: 'chat', dialogOpen: true, minimised: false, patientProviderDetails: { provider_name: 'Sofia Antoniou', provider_type: 'coach' } });
    expect(state.messages.map((m) => m.kind)).toEqual(['greeting']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(store.getState().providerResponse).toBe(true);
  });

  it('the greeting alone (by its words) also opens the Chat screen', async () => {
    const { store, emit } = setup();
    await store.start(details());
    emit(message(1, { kind: 'text', Message: 'Hi, How can I help you today?' }));
    expect(store.getState().component).toBe('chat');
  });

  it('in Chat: 3 minutes of silence post the prompt, 2 more post the unavailable notice and end the chat', async () => {
    const { store, deps, emit, socket } = setup();
    await store.start(details());
    emit(started);
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_PROMPT_MS - 1);
    expect(store.getState().messages.filter((m) => m.kind === 'idlePrompt')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().messages.map((m) => m.kind)).toEqual(['idlePrompt']);
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_END_MS - 1);
    expect(store.getState().ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().messages.map((m) => m.kind)).toEqual(['idlePrompt', 'idleEnd']);
    expect(store.getState().ended).toBe(true);
    expect(deps.endChat).toHaveBeenCalledWith(9);
    expect(socket().connection.close).toHaveBeenCalled();
    // Nothing more afterwards.
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_PROMPT_MS + CHAT_IDLE_END_MS);
    expect(store.getState().messages).toHaveLength(2);
  });

  it('each message sent and each message received restarts the Chat timer', async () => {
    const { store, emit } = setup();
    await store.start(details());
    emit(started);
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_PROMPT_MS - 1000);
    expect(store.sendText('  still here  ')).toBe(true);
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_PROMPT_MS - 1000);
    emit(message(2));
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_PROMPT_MS - 1000);
    expect(store.getState().messages.some((m) => m.kind === 'idlePrompt')).toBe(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(store.getState().messages.some((m) => m.kind === 'idlePrompt')).toBe(true);
    // The prompt answered: the end does not come.
    store.sendText('yes');
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_END_MS);
    expect(store.getState().ended).toBe(false);
  });

  it('sent texts show at once as mine, trimmed; whitespace is not sent; the ack gives them their id', async () => {
    const { store, emit } = setup();
    await store.start(details());
    emit(started);
    expect(store.sendText('   ')).toBe(false);
    expect(store.sendText(' hello ')).toBe(true);
    expect(store.getState().messages).toEqual([expect.objectContaining({ content: 'hello', me: true, kind: 'text', id: null, clientMessageId: 'client-id-1' })]);
    emit({ type: 'ack', received: 'ok', conversationId: 9, chunkId: null, id: 31, clientMessageId: 'client-id-1' });
    expect(store.getState().messages[0]).toMatchObject({ id: 31 });
    // Replayed after a reconnection: not shown twice.
    emit(message(31, { me: true, clientMessageId: 'client-id-1', Message: 'hello' }));
    expect(store.getState().messages).toHaveLength(1);
  });

  it('the other side ending shows the exit notice and stops the timers', async () => {
    const { store, emit } = setup();
    await store.start(details());
    emit(started);
    emit({ type: 'ended', conversationId: 9, Message: 'Sofia Antoniou exited the chat session at 2026-03-01T10:20:00.000Z', SenderName: 'Sofia Antoniou', endedAt: '2026-03-01T10:20:00.000Z', reason: 'provider' });
    const state = store.getState();
    expect(state.ended).toBe(true);
    expect(state.messages.at(-1)).toMatchObject({ kind: 'exit', senderName: 'Sofia Antoniou', sentAt: '2026-03-01T10:20:00.000Z' });
    await vi.advanceTimersByTimeAsync(CHAT_IDLE_PROMPT_MS + CHAT_IDLE_END_MS);
    expect(store.getState().messages.filter((m) => m.kind === 'idlePrompt')).toHaveLength(0);
  });

  it('the stored exit message, then the ended event: one notice, at the instant of the end', async () => {
    const { store, emit, socket } = setup();
    await store.start(details());
    emit(started);
    emit(message(7, { kind: 'exit', Message: 'Sofia Antoniou exited the chat session at 2026-03-01T10:20:00.000Z', sentAt: '2026-03-01T10:20:00.012Z' }));
    expect(store.getState().ended).toBe(true);
    expect(socket().connection.close).not.toHaveBeenCalled();
    emit({ type: 'ended', conversationId: 9, Message: 'x', SenderName: 'Sofia Antoniou', endedAt: '2026-03-01T10:20:00.000Z', reason: 'provider' });
    const exits = store.getState().messages.filter((m) => m.kind === 'exit');
    expect(exits).toHaveLength(1);
    expect(exits[0]).toMatchObject({ senderName: 'Sofia Antoniou', sentAt: '2026-03-01T10:20:00.000Z' });
    expect(socket().connection.close).toHaveBeenCalled();
  });

  it('a file over 5 MB is not sent: the problem names the file', async () => {
    const { store, emit, socket } = setup();
    await store.start(details());
    emit(started);
    const big = new File([new Uint8Array(CHAT_FILE_MAX_BYTES + 1)], 'scan.pdf', { type: 'application/pdf' });
    await store.sendFile(big);
    expect(store.getState().fileProblem).toEqual({ code: 'tooLarge', name: 'scan.pdf', message: null });
    expect(socket().connection.sendFile).not.toHaveBeenCalled();
  });

  it('a file sent shows as my message with its download once stored', async () => {
    const { store, emit } = setup();
    await store.start(details());
    emit(started);
    const sending = store.sendFile(new File([new Uint8Array(10)], 'photo.png', { type: 'image/png' }));
    expect(store.getState().sendingAttachment).toBe(true);
    await sending;
    expect(store.getState().sendingAttachment).toBe(false);
    expect(store.getState().messages.at(-1)).toMatchObject({ kind: 'file', me: true, content: 'photo.png', file: { id: 50, name: 'photo.png', size: 10, content_type: 'image/png' } });
  });

  it('Close Chat ends the chat on the server, closes the connection and the dialog', async () => {
    const { store, deps, socket, emit } = setup();
    await store.start(details());
    emit(started);
    await store.closeChat();
    expect(deps.endChat).toHaveBeenCalledWith(9);
    expect(socket().connection.close).toHaveBeenCalled();
    expect(store.getState()).toMatchObject({ component: 'empty', dialogOpen: false, chatDetails: null });
  });

  it('on app load (a reload, signing in again: nothing kept in the tab), the open chat is asked of the server and joined again (with its messages so far)', async () => {
    const transcript: ChatTranscript = {
      conversation: {
        conversation_id: 9,
        status: 'active',
        patient_id: 5,
        patient_name: 'Maria Papadopoulou',
        provider_user_id: 8,
        provider_name: 'Sofia Antoniou',
        provider_type: 'coach',
        reason: 'stress',
        reason_for_visit: 'Stress or anxiety',
        queued_at: '2026-03-01T10:00:00.000Z',
        started_at: '2026-03-01T10:05:00.000Z',
        ended_at: null,
        end_reason: null,
        message_count: 2,
        file_count: 0,
      },
      messages: [message(1, { kind: 'greeting' }) as never, message(4, { me: true, Message: 'hi' }) as never],
    };
    const { store, socket } = setup({
      getCurrentChat: vi.fn(async () => details({ status: 'active', provider_name: 'Sofia Antoniou', position: null })),
      getTranscript: vi.fn(async () => transcript),
    });
    await store.restore();
    expect(store.getState()).toMatchObject({ component: 'chat', dialogOpen: true, patientProviderDetails: { provider_name: 'Sofia Antoniou', provider_type: 'coach' } });
    expect(store.getState().messages.map((m) => m.id)).toEqual([1, 4]);
    expect(socket().options.lastMessageId).toBe(4);
  });

  it('on app load without an open chat nothing is joined; many asking at once ask the server once', async () => {
    const { store, deps, sockets } = setup();
    await Promise.all([store.restore(), store.restore()]);
    expect(deps.getCurrentChat).toHaveBeenCalledOnce();
    expect(sockets).toHaveLength(0);
    expect(store.getState()).toMatchObject({ component: 'empty', dialogOpen: false, chatDetails: null });
  });

  it('the server closing with "ended" while waiting says no provider could respond', async () => {
    const { store, socket } = setup();
    await store.start(details());
    socket().options.onStatus('closed', CHAT_CLOSE.ended);
    expect(store.getState()).toMatchObject({ ended: true, providerResponse: false, status: 'closed', closeCode: CHAT_CLOSE.ended });
  });

  it('messages from the other side while minimised count as unread until expanded', async () => {
    const { store, emit } = setup();
    await store.start(details());
    emit(started);
    store.toggleMinimised();
    emit(message(2));
    emit(message(3));
    expect(store.getState().unread).toBe(2);
    store.toggleMinimised();
    expect(store.getState().unread).toBe(0);
  });
});
