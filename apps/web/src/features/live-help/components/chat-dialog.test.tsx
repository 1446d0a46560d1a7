import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CHAT_FILE_MAX_BYTES } from '@healthbook/shared/chat';
import type { ServerEvent } from '@healthbook/shared/chat-protocol';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import { createChatStore, type ChatStoreDeps } from '../chat-store';
import type { ChatConnectionOptions, ChatConnectionStatus } from '../lib/chat-connection';
import { ChatDialog } from './chat-dialog';
import { chatDetails } from '../test-fixtures';

const details = chatDetails({ position: null });

function setup() {
  let options: ChatConnectionOptions | null = null;
  const connection = {
    connect: vi.fn(),
    close: vi.fn(),
    sendText: vi.fn((text: string) => (text.trim() ? `client-${text.trim().length}-abcdefgh` : null)),
    sendFile: vi.fn(async (file: File) => ({ id: 70, clientMessageId: `file-${file.size}-abcdefgh` })),
    endChat: vi.fn(() => true),
    typing: vi.fn(),
  };
  const deps: ChatStoreDeps = {
    createConnection: (o) => {
      options = o;
      return connection;
    },
    getTicket: async () => 'ticket',
    endChat: vi.fn(async () => ({})),
    getCurrentChat: async () => null,
    getTranscript: async () => {
      throw new Error('none');
    },
  };
  const store = createChatStore(deps);
  const emit = (event: ServerEvent) => act(() => options!.onEvent(event));
  const status = (s: ChatConnectionStatus, code?: number) => act(() => options!.onStatus(s, code));
  return { store, deps, connection, emit, status };
}

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

async function renderDialog(store: ReturnType<typeof setup>['store']) {
  return renderPage({ path: 'dashboard', element: <ChatDialog clientId="healthbook" documentsActive store={store} />, at: '/healthbook/dashboard' });
}

describe('the chat dialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('waits in the queue: loading..., then the position; the Chat screen once a provider takes the patient', { timeout: 20_000 }, async () => {
    const { store, emit, status } = setup();
    await act(() => store.start(details));
    await renderDialog(store);
    const dialog = await screen.findByRole('dialog', { name: 'Secure chat' });
    expect(within(dialog).getByText('Your secure chat session will begin soon. You are in queue')).toBeTruthy();
    expect(within(dialog).getByText('loading...')).toBeTruthy();
    status('open');
    emit({ type: 'position', conversationId: 9, Position: 1 });
    // As drawn (CI once read the old text at once after the event, on a loaded machine).
    await waitFor(() => expect(within(dialog).getByTestId('queue-position').textContent).toBe('1'));

    emit(started);
    emit({
      type: 'message',
      id: 1,
      conversationId: 9,
      Message: 'Hello Maria, I am Sofia. How can I help you today?',
      SenderName: 'Sofia Antoniou',
      ProviderType: 'coach',
      contentType: 'text/plain',
      me: false,
      sentAt: '2026-03-01T10:05:00.000Z',
      kind: 'greeting',
      file: null,
      clientMessageId: null,
    });
    // The provider type's and the greeting's words come from catalogs that may still be loading.
    expect(await within(dialog).findByText('Sofia Antoniou', { selector: 'p.MuiTypography-body1' })).toBeTruthy();
    expect(await within(dialog).findByText('Peer coach', {}, { timeout: 5000 })).toBeTruthy();
    const log = await within(dialog).findByRole('log', { name: 'Messages' });
    expect(await within(log).findByText(/Hello Maria, I'm Sofia Antoniou, your peer coach\. How can I help you today\?/, {}, { timeout: 5000 })).toBeTruthy();
  });

  it('Enter sends (trimmed), Shift+Enter does not, whitespace is not sent; text is disabled while not connected', { timeout: 20_000 }, async () => {
    const { store, emit, status, connection } = setup();
    await act(() => store.start(details));
    emit(started);
    await renderDialog(store);
    const box = (await screen.findByRole('textbox', { name: 'Your Message' })) as HTMLTextAreaElement;
    expect(box.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Attach a PDF or an image' }) as HTMLButtonElement).disabled).toBe(true);
    status('open');
    expect(box.disabled).toBe(false);

    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(connection.sendText).not.toHaveBeenCalledWith(expect.stringMatching(/\S/));
    fireEvent.change(box, { target: { value: 'first line' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(connection.sendText).not.toHaveBeenCalledWith('first line');
    fireEvent.change(box, { target: { value: '  I feel stressed  ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(connection.sendText).toHaveBeenCalledWith('  I feel stressed  ');
    expect(box.value).toBe('');
    expect(within(screen.getByRole('log')).getByText('I feel stressed')).toBeTruthy();
    expect(within(screen.getByRole('log')).getByText(/^You/)).toBeTruthy();

    // The Send button too.
    fireEvent.change(box, { target: { value: 'thanks' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(within(screen.getByRole('log')).getByText('thanks')).toBeTruthy();
  });

  it('a file over 5 MB is refused in red with its name; a smaller one is sent and shows as a download link', { timeout: 20_000 }, async () => {
    const { store, emit, status, connection } = setup();
    await act(() => store.start(details));
    emit(started);
    status('open');
    const { container } = await renderDialog(store);
    const input = container.ownerDocument.querySelector('input[type=file]') as HTMLInputElement;
    expect(input.accept).toContain('application/pdf');
    const big = new File([new Uint8Array(CHAT_FILE_MAX_BYTES + 1)], 'big scan.pdf', { type: 'application/pdf' });
    await act(async () => {
      fireEvent.change(input, { target: { files: [big] } });
    });
    const problem = await screen.findByText('big scan.pdf exceeds file size of 5MB');
    expect(getComputedStyle(problem).color).toBe('rgb(211, 47, 47)');
    expect(connection.sendFile).not.toHaveBeenCalled();

    const small = new File([new Uint8Array(12)], 'photo.png', { type: 'image/png' });
    await act(async () => {
      fireEvent.change(input, { target: { files: [small] } });
    });
    expect(await screen.findByRole('button', { name: 'Download photo.png' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save photo.png to the Document Center' })).toBeTruthy();
  });

  it('Minimize hides the body and Expand brings it back; messages meanwhile are counted', { timeout: 20_000 }, async () => {
    const { store, emit, status } = setup();
    await act(() => store.start(details));
    emit(started);
    status('open');
    await renderDialog(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Minimize' }));
    expect(screen.queryByRole('textbox', { name: 'Your Message' })).toBeNull();
    emit({
      type: 'message',
      id: 5,
      conversationId: 9,
      Message: 'Are you there?',
      SenderName: 'Sofia Antoniou',
      ProviderType: 'coach',
      contentType: 'text/plain',
      me: false,
      sentAt: '2026-03-01T10:06:00.000Z',
      kind: 'text',
      file: null,
      clientMessageId: null,
    });
    expect(screen.getByText('1 new message')).toBeTruthy();
    const expand = screen.getByRole('button', { name: 'Expand' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(expand);
    expect(screen.getByRole('textbox', { name: 'Your Message' })).toBeTruthy();
  });

  it('shows the exit notice in local time when the other side ends, and Close Chat leads to the end screen', { timeout: 20_000 }, async () => {
    const { store, emit, status, deps } = setup();
    await act(() => store.start(details));
    emit(started);
    status('open');
    await renderDialog(store);
    const endedAt = '2026-03-01T10:20:00.000Z';
    emit({ type: 'ended', conversationId: 9, Message: 'x', SenderName: 'Sofia Antoniou', endedAt, reason: 'provider' });
    const local = new Date(endedAt);
    const pad = (n: number) => String(n).padStart(2, '0');
    const time = `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())} ${pad(local.getHours())}:${pad(local.getMinutes())}`;
    expect(screen.getByText(`Sofia Antoniou exited the chat session at ${time}`)).toBeTruthy();
    expect(screen.getByText('This chat has ended.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Your Message' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close Chat' }));
    expect(await screen.findByTestId('location')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/healthbook/chat/end-secure-chat-screen');
    // Already over: nothing more to end on the server.
    expect(deps.endChat).not.toHaveBeenCalled();
  });

  it('Close Chat during a chat asks first ("End this chat?"); kept on Cancel, ended on the server once confirmed', { timeout: 20_000 }, async () => {
    mockFetch(() => json(200, {}));
    const { store, emit, status, deps } = setup();
    await act(() => store.start(details));
    emit(started);
    status('open');
    await renderDialog(store);
    fireEvent.click(await screen.findByRole('button', { name: 'Close Chat' }));
    let ask = await screen.findByRole('dialog', { name: 'End this chat?' });
    expect(ask.textContent).toContain('The chat with Sofia Antoniou will end');
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep chatting' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'End this chat?' })).toBeNull());
    expect(deps.endChat).not.toHaveBeenCalled();
    expect(store.getState()).toMatchObject({ dialogOpen: true, ended: false });
    fireEvent.click(screen.getByRole('button', { name: 'Close Chat' }));
    ask = await screen.findByRole('dialog', { name: 'End this chat?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'End chat' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/healthbook/chat/end-secure-chat-screen'));
    expect(deps.endChat).toHaveBeenCalledWith(9);
    expect(store.getState().dialogOpen).toBe(false);
  });
});
