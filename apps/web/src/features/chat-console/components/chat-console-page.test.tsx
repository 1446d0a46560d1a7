import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatChatExitTime } from '@healthbook/shared/chat';
import type { MessageEvent, QueueEntry, ServerEvent } from '@healthbook/shared/chat-protocol';
import type { ChatConversation, ChatTranscript } from '@healthbook/shared/contracts/chat';
import { fakeToken, fakeUser } from '../../../components/testing/fake-session';
import { clearLocalData, signIn } from '../../../lib/auth';
import { json, mockFetch, renderPage, type FetchCall } from '../../../test/render-page';
import type { ChatSocket, ChatSocketFactory, ChatSocketFileSent, ChatSocketOptions, ChatSocketStatus } from '../../../lib/chat-socket';
import { ChatConsolePage } from './chat-console-page';

// Socket events reach the page outside act(): a loaded machine may take a moment to draw them.
configure({ asyncUtilTimeout: 5_000 });

/** A socket client the test drives: it records what the console sends and delivers the events the test gives. */
class FakeSocket implements ChatSocket {
  status: ChatSocketStatus = 'idle';
  lastMessageId = 0;
  texts: Array<{ text: string; conversationId: number | undefined; clientMessageId: string }> = [];
  files: Array<{ file: File; conversationId: number | undefined; done: (answer: ChatSocketFileSent) => void; fail: (error: unknown) => void }> = [];
  typed: Array<number | undefined> = [];
  closed = false;
  constructor(readonly options: ChatSocketOptions) {}
  connect() {
    this.setStatus('open');
    this.emit({ type: 'welcome', role: 'staff', userId: 9, conversations: [] });
  }
  close() {
    this.closed = true;
  }
  sendText(text: string, conversationId?: number) {
    const clientMessageId = `client-${this.texts.length + 1}-xxxxxxxx`;
    this.texts.push({ text, conversationId, clientMessageId });
    return clientMessageId;
  }
  sendFile(file: File, conversationId?: number, onProgress?: (sent: number, total: number) => void) {
    onProgress?.(0, file.size);
    return new Promise<ChatSocketFileSent>((done, fail) => this.files.push({ file, conversationId, done, fail }));
  }
  endChat() {
    return true;
  }
  typing(conversationId?: number) {
    this.typed.push(conversationId);
  }
  setStatus(status: ChatSocketStatus, code?: number) {
    this.status = status;
    this.options.onStatus(status, code);
  }
  emit(event: ServerEvent) {
    this.options.onEvent(event);
  }
}

let sockets: FakeSocket[] = [];
const connect: ChatSocketFactory = (options) => {
  const socket = new FakeSocket(options);
  sockets.push(socket);
  return socket;
};
const socket = () => sockets.at(-1)!;

const MARIA = 'Maria Papadopoulou';
const entry = (extra: Partial<QueueEntry> = {}): QueueEntry => ({
  conversation_id: 1,
  patient_id: 101,
  patient_name: MARIA,
  provider_type: 'coach',
  reason_for_visit: 'Stress or anxiety',
  queued_at: new Date(Date.now() - 125_000).toISOString(),
  position: 1,
  ...extra,
});
const conversation = (extra: Partial<ChatConversation> = {}): ChatConversation => ({
  conversation_id: 1,
  status: 'active',
  patient_id: 101,
  patient_name: MARIA,
  provider_user_id: 9,
  provider_name: 'Sofia Antoniou',
  provider_type: 'coach',
  reason: 'stress',
  reason_for_visit: 'Stress or anxiety',
  queued_at: '2026-11-25T09:50:00Z',
  started_at: '2026-11-25T09:55:00Z',
  ended_at: null,
  end_reason: null,
  message_count: 1,
  file_count: 0,
  ...extra,
});
const message = (extra: Partial<MessageEvent> = {}): MessageEvent => ({
  type: 'message',
  id: 10,
  conversationId: 1,
  Message: 'Hello Maria, I am Sofia Antoniou, your Peer coach. How can I help you today?',
  SenderName: 'Sofia Antoniou',
  ProviderType: 'coach',
  contentType: 'text/plain',
  me: true,
  sentAt: '2026-11-25T09:55:00Z',
  kind: 'greeting',
  file: null,
  clientMessageId: null,
  ...extra,
});

interface Server {
  queue: QueueEntry[];
  take: (call: FetchCall) => Response;
  conversations: ChatConversation[];
  transcript: ChatTranscript;
}
let server: Server;
let calls: FetchCall[];

async function openConsole() {
  calls = mockFetch((call) => {
    if (call.url === '/api/v1/chat/queue/') return json(200, server.queue);
    if (call.url === '/api/v1/chat/queue/take/') return server.take(call);
    if (call.url === '/api/v1/chat/conversations/') return json(200, server.conversations);
    if (call.url.startsWith('/api/v1/chat/conversations/?patient=')) return json(200, server.conversations);
    if (call.url === '/api/v1/chat/conversations/1/') return json(200, server.transcript);
    if (call.url === '/api/v1/peercoaching/endchat/') return json(200, conversation({ status: 'ended', ended_at: '2026-11-25T10:30:00Z', end_reason: 'provider' }));
    if (call.url === '/api/v1/chat/files/77/') return new Response('%PDF-1.4 lab', { status: 200, headers: { 'Content-Type': 'application/pdf' } });
    return json(404, { detail: 'Not found.' });
  });
  await renderPage({ path: 'provider/chat', element: <ChatConsolePage connect={connect} />, at: '/healthbook/provider/chat' });
  await screen.findByRole('heading', { level: 1, name: 'Chat console' });
  // The page connects from an effect after it shows: on a busy machine the socket comes a moment after the heading.
  await waitFor(() => expect(sockets.length).toBeGreaterThan(0));
}

const take = (conv: ChatConversation = conversation()) => () => json(200, conv);

describe('the chat console', () => {
  beforeEach(() => {
    sockets = [];
    clearLocalData();
    signIn({ access: fakeToken({ org: 7 }), user: fakeUser({ user_id: 9, first_name: 'Sofia', last_name: 'Antoniou', roles: ['professional', 'coach'], credential: 'PC-12' }) });
    server = { queue: [entry()], take: take(), conversations: [], transcript: { conversation: conversation(), messages: [message()] } };
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('connects as staff and lists the waiting patients live, with the reason in words, the waiting time and the position', { timeout: 20_000 }, async () => {
    await openConsole();
    expect(socket().options.role).toBe('staff');
    expect(socket().options.query).toEqual({ isPatient: false, userId: 9, orgName: 'healthbook', credential: 'PC-12' });
    expect(await screen.findByText('Chat connection: connected')).toBeTruthy();

    const table = await screen.findByRole('table', { name: 'Waiting patients' });
    const row = within(table).getByRole('row', { name: new RegExp(MARIA) });
    expect(within(row).getByText('Stress or anxiety')).toBeTruthy();
    expect(within(row).getByText('Peer coach')).toBeTruthy();
    expect(within(row).getByText(/^2 min \d{2} s$/)).toBeTruthy();
    expect(screen.getByText('1 patient waiting')).toBeTruthy();

    // The socket's queue events replace the list.
    // Someone new: the REST answer (in the reader's language) is read again.
    server.queue = [entry(), entry({ conversation_id: 2, patient_id: 102, patient_name: 'Nikos Pappas', reason_for_visit: 'loneliness', position: 2 })];
    const reads = calls.filter((c) => c.url === '/api/v1/chat/queue/').length;
    socket().emit({ type: 'queue', queue: server.queue });
    expect(await screen.findByText('2 patients waiting')).toBeTruthy();
    expect(within(await screen.findByRole('row', { name: /Nikos Pappas/ })).getByText('Feeling lonely')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/v1/chat/queue/').length).toBe(reads + 1));
    socket().emit({ type: 'queue', queue: [] });
    expect(await screen.findByText('No one is waiting right now. Patients appear here as soon as they join the queue.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Take next patient' }).hasAttribute('disabled')).toBe(true);

    // The connection's state is shown, and a lost one can be opened again.
    socket().setStatus('reconnecting', 1006);
    expect(await screen.findByText('Chat connection: reconnecting…')).toBeTruthy();
    socket().setStatus('closed', 4001);
    const first = socket();
    fireEvent.click(await screen.findByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(sockets).toHaveLength(2));
    expect(first.closed).toBe(true);
    expect(await screen.findByText('Chat connection: connected')).toBeTruthy();
  });

  it('takes a patient, and the chat goes both ways: texts acknowledged, files received and sent, the patient leaving', { timeout: 30_000 }, async () => {
    await openConsole();
    fireEvent.click(await screen.findByRole('button', { name: `Take the chat with ${MARIA}` }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/v1/chat/queue/take/')?.body).toEqual({ conversation_id: 1 }));
    expect(await screen.findByText(`You are now chatting with ${MARIA}.`)).toBeTruthy();

    const panel = await screen.findByRole('tabpanel', { name: MARIA });
    expect(within(panel).getByRole('heading', { level: 3, name: MARIA })).toBeTruthy();
    expect(within(panel).getByText('Reason: Stress or anxiety')).toBeTruthy();
    // The transcript brings the greeting.
    const log = within(panel).getByRole('log', { name: `Messages with ${MARIA}` });
    expect(await within(log).findByText(/How can I help you today/)).toBeTruthy();

    // Straight to writing: the message field has the focus. A text: Enter sends it, shown as sending until the server's ack.
    const field = within(panel).getByRole('textbox', { name: 'Your Message' });
    await waitFor(() => expect(document.activeElement).toBe(field));
    fireEvent.change(field, { target: { value: '   ' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(socket().texts).toHaveLength(0);
    fireEvent.change(field, { target: { value: 'How are you feeling today?' } });
    expect(socket().typed).toContain(1);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(socket().texts).toEqual([{ text: 'How are you feeling today?', conversationId: 1, clientMessageId: 'client-1-xxxxxxxx' }]);
    await waitFor(() => expect((field as HTMLTextAreaElement).value).toBe(''));
    expect(await within(log).findByText('How are you feeling today?')).toBeTruthy();
    expect(within(log).getByText('Sending…')).toBeTruthy();
    socket().emit({ type: 'ack', received: 'ok', conversationId: 1, chunkId: null, id: 11, clientMessageId: 'client-1-xxxxxxxx' });
    await waitFor(() => expect(within(log).queryByText('Sending…')).toBeNull());

    // The patient answers with a file: a download through the authenticated fetcher.
    socket().emit({ type: 'typing', conversationId: 1, SenderName: MARIA });
    expect(await within(log).findByText(`${MARIA} is typing…`)).toBeTruthy();
    socket().emit(
      message({ id: 12, me: false, kind: 'file', SenderName: MARIA, ProviderType: null, Message: 'lab.pdf', contentType: 'application/pdf', file: { id: 77, name: 'lab.pdf', size: 2048, content_type: 'application/pdf' }, sentAt: '2026-11-25T10:01:00Z' }),
    );
    await waitFor(() => expect(within(log).queryByText(`${MARIA} is typing…`)).toBeNull());
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:lab');
    URL.createObjectURL = createObjectURL;
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    fireEvent.click(await within(log).findByRole('button', { name: 'Download lab.pdf (2 KB)' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(click).toHaveBeenCalled();
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe('%PDF-1.4 lab');
    const download = calls.find((c) => c.url === '/api/v1/chat/files/77/')!;
    expect(download.headers.Authorization).toMatch(/^Bearer /);

    // A file over 5 MB: said in red, nothing sent.
    const input = panel.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(5_242_881)], 'scan.png', { type: 'image/png' })] } });
    const tooLarge = await within(panel).findByRole('alert');
    expect(tooLarge.textContent).toBe('scan.png exceeds file size of 5MB');
    expect(socket().files).toHaveLength(0);

    // A file within it: "Sending attachment" until the server stored it, then the file in the list.
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.4 plan'], 'plan.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(socket().files).toHaveLength(1));
    expect(socket().files[0]!.conversationId).toBe(1);
    await waitFor(() => expect(within(panel).getAllByText(/Sending attachment/).length).toBeGreaterThan(0));
    expect(within(panel).queryByRole('alert')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Attach a file' }).hasAttribute('disabled')).toBe(true);
    socket().files[0]!.done({ id: 13, clientMessageId: 'file-1-xxxxxxxx' });
    expect(await within(log).findByRole('button', { name: /^Download plan\.pdf/ })).toBeTruthy();
    expect(within(panel).queryByText(/Sending attachment/)).toBeNull();

    // The patient leaves: their exit notice in local time, and the pane is read-only.
    socket().emit({ type: 'ended', conversationId: 1, Message: `${MARIA} exited the chat session at 2026-11-25T10:05:00Z`, SenderName: MARIA, endedAt: '2026-11-25T10:05:00Z', reason: 'patient' });
    expect(await within(log).findByText(`${MARIA} exited the chat session at ${formatChatExitTime('2026-11-25T10:05:00Z')}`)).toBeTruthy();
    expect(within(panel).queryByRole('textbox', { name: 'Your Message' })).toBeNull();
    expect(within(panel).getByText('This chat has ended: it can be read but no longer written in.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: `${MARIA}, ended` })).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: `Close the chat with ${MARIA}` }));
    expect(await screen.findByText('You have no open chats. Take a patient from the queue to start one.')).toBeTruthy();
  });

  it('says plainly when the patient was taken by someone else or nobody is left, and reads the queue again', { timeout: 20_000 }, async () => {
    server.take = () => json(409, { detail: 'This patient is no longer waiting: another provider has taken the chat or it has ended.' });
    await openConsole();
    await screen.findByRole('table', { name: 'Waiting patients' });
    const before = calls.filter((c) => c.url === '/api/v1/chat/queue/').length;
    server.queue = [];
    fireEvent.click(screen.getByRole('button', { name: `Take the chat with ${MARIA}` }));
    expect(await screen.findByText('This patient is no longer waiting: another provider has taken the chat or it has ended. The list is up to date.')).toBeTruthy();
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/v1/chat/queue/').length).toBe(before + 1));
    expect(await screen.findByText('No one is waiting right now. Patients appear here as soon as they join the queue.')).toBeTruthy();
    expect(screen.queryByRole('tab')).toBeNull();

    server.queue = [entry()];
    socket().emit({ type: 'queue', queue: server.queue });
    server.take = () => json(404, { detail: 'No one is waiting in the queue.' });
    fireEvent.click(await screen.findByRole('button', { name: 'Take next patient' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/v1/chat/queue/take/').at(-1)?.body).toEqual({}));
    expect(await screen.findByText('No one is waiting in the queue any more. The list is up to date.')).toBeTruthy();
  });

  it('ends a chat once confirmed, reopens the chats held after a reload, and shows the patient’s previous chats', { timeout: 30_000 }, async () => {
    server.conversations = [
      conversation(),
      conversation({ conversation_id: 5, status: 'ended', started_at: '2026-11-20T08:00:00Z', ended_at: '2026-11-20T08:20:00Z', end_reason: 'patient', message_count: 4 }),
    ];
    await openConsole();
    // After a reload: the welcome names the chat held, its transcript fills the pane.
    socket().emit({
      type: 'welcome',
      role: 'staff',
      userId: 9,
      conversations: [{ conversation_id: 1, status: 'active', patient_id: 101, patient_name: MARIA, provider_name: 'Sofia Antoniou', provider_type: 'coach', reason_for_visit: 'Stress or anxiety' }],
    });
    const panel = await screen.findByRole('tabpanel', { name: MARIA });
    expect(await within(panel).findByText(/How can I help you today/)).toBeTruthy();

    // Previous chats: the other conversations with this patient.
    fireEvent.click(within(panel).getByRole('button', { name: 'Previous chats' }));
    const dialog = await screen.findByRole('dialog', { name: `Previous chats with ${MARIA}` });
    await waitFor(() => expect(calls.some((c) => c.url === '/api/v1/chat/conversations/?patient=101')).toBe(true));
    expect(await within(dialog).findByText(/4 messages/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The past chats section lists this staff member's conversations.
    const past = await screen.findByRole('table', { name: 'Past chats' });
    expect(within(past).getAllByRole('row')).toHaveLength(3);
    expect(within(past).getByText('Ended')).toBeTruthy();

    // Ending: a confirmation first; Keep chatting keeps it.
    fireEvent.click(within(panel).getByRole('button', { name: 'End chat' }));
    let confirm = await screen.findByRole('dialog', { name: 'End the chat' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Keep chatting' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.url === '/api/v1/peercoaching/endchat/')).toBe(false);
    fireEvent.click(within(panel).getByRole('button', { name: 'End chat' }));
    confirm = await screen.findByRole('dialog', { name: 'End the chat' });
    expect(within(confirm).getByText(`End the chat with ${MARIA}? Neither of you can write in it afterwards.`)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'End chat' }));
    expect(await within(panel).findByText(`You ended the chat session at ${formatChatExitTime('2026-11-25T10:30:00Z')}`)).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/v1/peercoaching/endchat/')?.body).toEqual({ conversation_id: 1 });
    expect(within(panel).queryByRole('textbox', { name: 'Your Message' })).toBeNull();
  });
});
