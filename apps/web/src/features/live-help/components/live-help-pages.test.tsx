import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChatConversation, ProviderTypeReasons } from '@healthbook/shared/contracts/chat';
import { json, mockFetch, renderPage } from '../../../test/render-page';
import { chatStore } from '../chat-store';
import ChatHistoryPage from './chat-history-page';
import ChatTranscriptPage from './chat-transcript-page';
import PeerCoachingPage from './peer-coaching-page';
import { chatDetails } from '../test-fixtures';

const reasons: ProviderTypeReasons[] = [
  { provider_type: 'coach', provider_type_name: 'Peer coach', reasons: [{ value: 'stress', name: 'Stress or anxiety' }, { value: 'other', name: 'Something else' }] },
  { provider_type: 'provider', provider_type_name: 'Provider', reasons: [{ value: 'medication', name: 'A question about my medication' }] },
];

const details = chatDetails();

const conversation = (extra: Partial<ChatConversation> = {}): ChatConversation => ({
  conversation_id: 9,
  status: 'ended',
  patient_id: 5,
  patient_name: 'Maria Papadopoulou',
  provider_user_id: 8,
  provider_name: 'Sofia Antoniou',
  provider_type: 'coach',
  reason: 'stress',
  reason_for_visit: 'Stress or anxiety',
  queued_at: '2026-03-01T10:00:00.000Z',
  started_at: '2026-03-01T10:05:00.000Z',
  ended_at: '2026-03-01T10:20:00.000Z',
  end_reason: 'provider',
  message_count: 3,
  file_count: 1,
  ...extra,
});

/** The socket the chat opens: it records its address. */
class FakeSocket {
  static urls: string[] = [];
  readyState = 0;
  onmessage = null;
  onclose = null;
  constructor(url: string) {
    FakeSocket.urls.push(url);
  }
  send() {}
  close() {
    this.readyState = 3;
  }
}

describe('live help pages', () => {
  afterEach(() => {
    act(() => chatStore.reset());
    cleanup();
    vi.unstubAllGlobals();
    sessionStorage.clear();
    FakeSocket.urls = [];
  });

  it('peer-coaching: the chosen provider type and reason join the queue, the chat starts and the page shows it in progress', { timeout: 20_000 }, async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    const calls = mockFetch((call) => {
      if (call.url === '/api/v1/peercoaching/providertypereasons/') return json(200, reasons);
      if (call.url === '/api/v1/peercoaching/sendmessagetoqueue/') return json(201, details);
      if (call.url === '/api/v1/chat/ticket/') return json(200, { ticket: 'ticket-abcdefghijklmnopqrstuvwxyz', expires_in: 30, socket_path: '/api/v1/chat/socket/' });
      return json(404, { detail: 'Not found.' });
    });
    await renderPage({ path: 'peer-coaching', element: <PeerCoachingPage />, at: '/healthbook/peer-coaching' });
    await screen.findByRole('heading', { level: 1, name: 'Peer Coaching' });
    const start = await screen.findByRole('button', { name: 'Start chat' });

    // Nothing chosen: both fields say what is missing.
    fireEvent.click(start);
    expect(await screen.findByText('Choose who you want to chat with.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(screen.getByRole('radio', { name: 'Peer coach' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'What would you like to talk about?' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Stress or anxiety' }));
    fireEvent.click(start);

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/healthbook/health-help/peer-coaching/chat-in-progress'));
    expect(calls.find((c) => c.url === '/api/v1/peercoaching/sendmessagetoqueue/')?.body).toEqual({ provider_type: 'coach', reason: 'stress' });
    expect(chatStore.getState()).toMatchObject({ component: 'wait', dialogOpen: true });
    await waitFor(() => expect(FakeSocket.urls).toHaveLength(1));
    const query = new URL(FakeSocket.urls[0]!).searchParams;
    expect(Object.fromEntries(query)).toMatchObject({ ticket: 'ticket-abcdefghijklmnopqrstuvwxyz', userId: '5', isPatient: 'true', reason: 'stress', providerType: 'coach', credential: 'cred-5', patientId: '5', orgName: 'healthbook' });
  });

  it('peer-coaching with a chat open says so and offers to open it instead of a new one', { timeout: 20_000 }, async () => {
    vi.stubGlobal('WebSocket', FakeSocket);
    mockFetch((call) => {
      if (call.url === '/api/v1/chat/ticket/') return json(200, { ticket: 'ticket-abcdefghijklmnopqrstuvwxyz', expires_in: 30, socket_path: '/api/v1/chat/socket/' });
      return json(200, reasons);
    });
    await act(() => chatStore.start(details));
    act(() => chatStore.toggleMinimised());
    await renderPage({ path: 'peer-coaching', element: <PeerCoachingPage />, at: '/healthbook/peer-coaching' });
    expect(await screen.findByRole('heading', { name: 'You have a chat in progress' })).toBeTruthy();
    expect(screen.getByText('You are waiting in the queue for a Peer coach (Stress or anxiety).')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start chat' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Open the chat' }));
    expect(chatStore.getState().minimised).toBe(false);
  });

  it('past chats: newest first, with whom, why and the status; each opens its transcript', { timeout: 20_000 }, async () => {
    mockFetch(() => json(200, [conversation({ conversation_id: 12, status: 'active', started_at: '2026-03-03T09:00:00.000Z' }), conversation(), conversation({ conversation_id: 4, provider_name: null, provider_user_id: null, started_at: null, status: 'ended', end_reason: 'timeout' })]));
    await renderPage({ path: 'peer-coaching/history', element: <ChatHistoryPage />, at: '/healthbook/peer-coaching/history' });
    await screen.findByRole('heading', { level: 1, name: 'Past chats' });
    const items = within(await screen.findByRole('list', { name: 'Past chats' })).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(within(items[0]!).getByText('In progress')).toBeTruthy();
    expect(within(items[1]!).getByText('Sofia Antoniou, Peer coach')).toBeTruthy();
    expect(within(items[1]!).getByText('Stress or anxiety')).toBeTruthy();
    expect(within(items[1]!).getByText('Ended')).toBeTruthy();
    expect(within(items[2]!).getByText('No one took this chat (Peer coach)')).toBeTruthy();
    expect(within(items[1]!).getByRole('link').getAttribute('href')).toBe('/healthbook/peer-coaching/history/9');
  });

  it('a transcript: read-only messages, files to download and save to the Document Center', { timeout: 20_000 }, async () => {
    const calls = mockFetch((call) => {
      if (call.url === '/api/v1/chat/conversations/9/')
        return json(200, {
          conversation: conversation(),
          messages: [
            { type: 'message', id: 1, conversationId: 9, Message: 'Hello', SenderName: 'Sofia Antoniou', ProviderType: 'coach', contentType: 'text/plain', me: false, sentAt: '2026-03-01T10:05:00.000Z', kind: 'greeting', file: null, clientMessageId: null },
            { type: 'message', id: 2, conversationId: 9, Message: 'lab.pdf', SenderName: 'Maria Papadopoulou', ProviderType: null, contentType: 'application/pdf', me: true, sentAt: '2026-03-01T10:06:00.000Z', kind: 'file', file: { id: 2, name: 'lab.pdf', size: 40_000, content_type: 'application/pdf' }, clientMessageId: 'abcdefgh1' },
          ],
        });
      if (call.url === '/api/v1/chat/files/2/save/') return json(201, { id: 77 });
      if (call.url === '/api/v1/features/get-features/') return json(200, [{ id: 6, key: 'document-center', feature_route: 'health-vault', display_name: 'Document Center', feature_status: 'active', icon_name: 'FolderShared' }]);
      return json(404, { detail: 'Not found.' });
    });
    await renderPage({ path: 'peer-coaching/history/:id', element: <ChatTranscriptPage />, at: '/healthbook/peer-coaching/history/9' });
    await screen.findByRole('heading', { level: 1, name: /^Chat of / });
    expect(screen.getByText('With Sofia Antoniou, Peer coach · Stress or anxiety')).toBeTruthy();
    expect(screen.getByText("Hello Maria, I'm Sofia Antoniou, your peer coach. How can I help you today?")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download lab.pdf' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Save lab.pdf to the Document Center' }));
    expect(await screen.findByText('Saved to your Document Center')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toContain('/api/v1/chat/files/2/save/');
  });
});
