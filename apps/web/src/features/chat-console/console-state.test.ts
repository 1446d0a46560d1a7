import { describe, expect, it } from 'vitest';
import type { MessageEvent, ServerEvent } from '@healthbook/shared/chat-protocol';
import type { ChatConversation } from '@healthbook/shared/contracts/chat';
import { consoleReducer, endOf, hasExitLine, initialConsoleState, mergeLine, lineOf, selectedPane, type ConsoleAction, type ConsoleState } from './console-state';

const NOW = Date.parse('2026-11-25T10:00:00Z');

const conversation = (id: number, extra: Partial<ChatConversation> = {}): ChatConversation => ({
  conversation_id: id,
  status: 'active',
  patient_id: 100 + id,
  patient_name: `Patient ${id}`,
  provider_user_id: 9,
  provider_name: 'Sofia Antoniou',
  provider_type: 'coach',
  reason: 'stress',
  reason_for_visit: 'Stress or anxiety',
  queued_at: '2026-11-25T09:50:00Z',
  started_at: '2026-11-25T09:55:00Z',
  ended_at: null,
  end_reason: null,
  message_count: 0,
  file_count: 0,
  ...extra,
});

const message = (id: number, conversationId: number, extra: Partial<MessageEvent> = {}): MessageEvent => ({
  type: 'message',
  id,
  conversationId,
  Message: `message ${id}`,
  SenderName: `Patient ${conversationId}`,
  ProviderType: null,
  contentType: 'text/plain',
  me: false,
  sentAt: '2026-11-25T10:00:00Z',
  kind: 'text',
  file: null,
  clientMessageId: null,
  ...extra,
});

const started = (conversationId: number): ServerEvent => ({
  type: 'started',
  conversationId,
  provider_name: 'Sofia Antoniou',
  provider_type: 'coach',
  patient_name: `Patient ${conversationId}`,
  patient_id: 100 + conversationId,
  reason_for_visit: 'Stress or anxiety',
  startedAt: '2026-11-25T09:55:00Z',
});

const event = (e: ServerEvent): ConsoleAction => ({ type: 'event', event: e, now: NOW });
const run = (actions: ConsoleAction[], state: ConsoleState = initialConsoleState) => actions.reduce(consoleReducer, state);
const pane = (state: ConsoleState, id: number) => state.panes.find((p) => p.conversationId === id)!;

describe('the console panes', () => {
  it('open for a chat taken (shown at once), and for a chat the server says started (the first shown only if none is)', () => {
    let state = run([{ type: 'taken', conversation: conversation(1) }]);
    expect(state.selected).toBe(1);
    expect(pane(state, 1)).toMatchObject({ patientName: 'Patient 1', patientId: 101, reason: 'stress', reasonForVisit: 'Stress or anxiety', providerType: 'coach', status: 'active' });
    state = run([event(started(2))], state);
    expect(state.panes.map((p) => p.conversationId)).toEqual([1, 2]);
    expect(state.selected).toBe(1);
    // Taking another shows it.
    state = run([{ type: 'taken', conversation: conversation(3) }], state);
    expect(state.selected).toBe(3);
    expect(selectedPane(state)?.conversationId).toBe(3);
  });

  it('open for the active chats of the welcome (after a reload), not for the others', () => {
    const state = run([
      event({
        type: 'welcome',
        role: 'staff',
        userId: 9,
        conversations: [
          { conversation_id: 4, status: 'active', patient_id: 104, patient_name: 'Patient 4', provider_name: 'Sofia', provider_type: 'coach', reason_for_visit: 'Feeling lonely' },
          { conversation_id: 5, status: 'ended', patient_id: 105, patient_name: 'Patient 5', provider_name: 'Sofia', provider_type: 'coach', reason_for_visit: 'x' },
        ],
      }),
    ]);
    expect(state.panes.map((p) => p.conversationId)).toEqual([4]);
    expect(pane(state, 4).loaded).toBe(false);
  });

  it('keep each message once, in the server order, whatever the order and repeats of arrival', () => {
    const state = run([
      { type: 'taken', conversation: conversation(1) },
      event(message(12, 1)),
      event(message(10, 1, { kind: 'greeting', Message: 'Hello, how can I help you today?', SenderName: 'Sofia Antoniou', me: false })),
      event(message(12, 1)),
      {
        type: 'transcript',
        transcript: { conversation: conversation(1, { message_count: 3 }), messages: [message(10, 1, { kind: 'greeting' }), message(11, 1), message(12, 1)] },
      },
    ]);
    expect(pane(state, 1).lines.map((l) => l.id)).toEqual([10, 11, 12]);
    expect(pane(state, 1).loaded).toBe(true);
  });

  it('show a text sent as pending until its ack (or its own message) gives it an id; a refusal marks it failed', () => {
    let state = run([
      { type: 'taken', conversation: conversation(1) },
      event(message(10, 1)),
      { type: 'textSent', conversationId: 1, clientMessageId: 'client-aaaaaaaa', text: 'Hello Maria', senderName: 'Sofia Antoniou', sentAt: '2026-11-25T10:00:01Z' },
      { type: 'textSent', conversationId: 1, clientMessageId: 'client-bbbbbbbb', text: 'Are you there?', senderName: 'Sofia Antoniou', sentAt: '2026-11-25T10:00:02Z' },
    ]);
    expect(pane(state, 1).lines.map((l) => [l.text, l.state])).toEqual([
      ['message 10', 'sent'],
      ['Hello Maria', 'pending'],
      ['Are you there?', 'pending'],
    ]);
    state = run(
      [
        event({ type: 'ack', received: 'ok', conversationId: 1, chunkId: null, id: 11, clientMessageId: 'client-aaaaaaaa' }),
        // The patient's answer, stored after it.
        event(message(13, 1)),
        event({ type: 'error', code: 'rateLimited', Message: 'You are sending messages too quickly.', clientMessageId: 'client-bbbbbbbb', chunkId: null }),
      ],
      state,
    );
    expect(pane(state, 1).lines.map((l) => [l.id, l.text, l.state])).toEqual([
      [10, 'message 10', 'sent'],
      [11, 'Hello Maria', 'sent'],
      [13, 'message 13', 'sent'],
      [null, 'Are you there?', 'failed'],
    ]);
    expect(pane(state, 1).lines.at(-1)!.error).toBe('You are sending messages too quickly.');
    // The same text seen again after a reconnection (me, same client id): still once.
    state = run([event(message(11, 1, { me: true, Message: 'Hello Maria', clientMessageId: 'client-aaaaaaaa' }))], state);
    expect(pane(state, 1).lines.filter((l) => l.text === 'Hello Maria')).toHaveLength(1);
    expect(state.notice).toBeNull();
  });

  it('say a refusal of nothing sent here as a notice', () => {
    const state = run([event({ type: 'error', code: 'notActive', Message: 'This chat is not open.', clientMessageId: null, chunkId: null })]);
    expect(state.notice).toBe('This chat is not open.');
    expect(run([{ type: 'dismissNotice' }], state).notice).toBeNull();
  });

  it('count new messages of the panes not shown, until shown', () => {
    let state = run([{ type: 'taken', conversation: conversation(1) }, { type: 'taken', conversation: conversation(2) }]);
    state = run([event(message(20, 1)), event(message(21, 1)), event(message(22, 2)), event(message(20, 1))], state);
    expect(pane(state, 1).unread).toBe(2);
    expect(pane(state, 2).unread).toBe(0);
    state = run([{ type: 'select', conversationId: 1 }], state);
    expect(pane(state, 1).unread).toBe(0);
    expect(state.selected).toBe(1);
  });

  it('follow a file going out: progress, then the file line with its stored id; a failure only stops the indicator', () => {
    let state = run([
      { type: 'taken', conversation: conversation(1) },
      { type: 'fileStarted', conversationId: 1, name: 'scan.pdf', total: 100_000 },
      { type: 'fileProgress', conversationId: 1, sent: 24_000, total: 100_000 },
    ]);
    expect(pane(state, 1).sending).toEqual({ name: 'scan.pdf', sent: 24_000, total: 100_000 });
    state = run(
      [
        // The ack of the last slice comes to the events too: it is not a text of this console, so nothing changes.
        event({ type: 'ack', received: 'ok', conversationId: 1, chunkId: 4, id: 30, clientMessageId: 'file-cccccccc' }),
        { type: 'fileSent', conversationId: 1, file: { name: 'scan.pdf', size: 100_000, type: 'application/pdf' }, id: 30, clientMessageId: 'file-cccccccc', senderName: 'Sofia Antoniou', sentAt: '2026-11-25T10:00:05Z' },
      ],
      state,
    );
    expect(pane(state, 1).sending).toBeNull();
    expect(pane(state, 1).lines).toHaveLength(1);
    expect(pane(state, 1).lines[0]).toMatchObject({ id: 30, kind: 'file', me: true, text: 'scan.pdf', file: { id: 30, name: 'scan.pdf', size: 100_000, content_type: 'application/pdf' } });
    state = run([{ type: 'fileStarted', conversationId: 1, name: 'big.png', total: 10 }, { type: 'fileFailed', conversationId: 1 }], state);
    expect(pane(state, 1).sending).toBeNull();
    expect(pane(state, 1).lines).toHaveLength(1);
  });

  it('show the typing notice of an open chat, cleared by the message that follows', () => {
    let state = run([{ type: 'taken', conversation: conversation(1) }, event({ type: 'typing', conversationId: 1, SenderName: 'Patient 1' })]);
    expect(pane(state, 1).typingAt).toBe(NOW);
    state = run([event(message(40, 1))], state);
    expect(pane(state, 1).typingAt).toBeNull();
  });

  it('become read-only when the patient ends the chat, with their exit notice once', () => {
    let state = run([
      { type: 'taken', conversation: conversation(1) },
      { type: 'fileStarted', conversationId: 1, name: 'a.pdf', total: 10 },
      event({ type: 'ended', conversationId: 1, Message: 'Patient 1 exited the chat session at 2026-11-25T10:10:00Z', SenderName: 'Patient 1', endedAt: '2026-11-25T10:10:00Z', reason: 'patient' }),
    ]);
    expect(pane(state, 1)).toMatchObject({ status: 'ended', end: { by: 'other', name: 'Patient 1', at: '2026-11-25T10:10:00Z' }, sending: null });
    expect(hasExitLine(pane(state, 1))).toBe(false);
    // The server's exit message as well: the list shows that one (and not the event's notice).
    state = run([event(message(50, 1, { kind: 'exit', Message: 'Patient 1 exited the chat session at 2026-11-25T10:10:00Z' }))], state);
    expect(hasExitLine(pane(state, 1))).toBe(true);
  });

  it('become read-only when this staff member ends it; once closed, a late event does not open it again', () => {
    let state = run([
      { type: 'taken', conversation: conversation(1) },
      { type: 'taken', conversation: conversation(2) },
      { type: 'endedByMe', conversationId: 2, name: 'Sofia Antoniou', at: '2026-11-25T10:20:00Z' },
    ]);
    expect(pane(state, 2)).toMatchObject({ status: 'ended', end: { by: 'me', name: 'Sofia Antoniou', at: '2026-11-25T10:20:00Z' } });
    state = run([{ type: 'close', conversationId: 2 }], state);
    expect(state.panes.map((p) => p.conversationId)).toEqual([1]);
    expect(state.selected).toBe(1);
    state = run([event(message(60, 2, { kind: 'exit' }))], state);
    expect(state.panes.map((p) => p.conversationId)).toEqual([1]);
    // The same patient taken again later: a new start opens it.
    state = run([event(started(2))], state);
    expect(state.panes.map((p) => p.conversationId)).toEqual([1, 2]);
  });

  it('open a pane for a message of a chat not shown yet, whose transcript then fills in the details and the end', () => {
    let state = run([event(message(70, 7, { SenderName: 'Patient 7' }))]);
    expect(pane(state, 7)).toMatchObject({ patientName: 'Patient 7', loaded: false, status: 'active' });
    state = run(
      [
        {
          type: 'transcript',
          transcript: {
            conversation: conversation(7, { status: 'ended', ended_at: '2026-11-25T10:30:00Z', end_reason: 'patient' }),
            messages: [message(70, 7)],
          },
        },
      ],
      state,
    );
    expect(pane(state, 7)).toMatchObject({ patientId: 107, reason: 'stress', status: 'ended', end: { by: 'other', name: 'Patient 7', at: '2026-11-25T10:30:00Z' }, loaded: true });
    // A transcript of a conversation without a pane (the history's) opens nothing.
    expect(run([{ type: 'transcript', transcript: { conversation: conversation(8), messages: [] } }], state).panes).toHaveLength(1);
  });

  it('leave the queue and the position to others', () => {
    const state = run([{ type: 'taken', conversation: conversation(1) }]);
    expect(run([event({ type: 'queue', queue: [] }), event({ type: 'position', conversationId: 1, Position: 2 })], state)).toBe(state);
  });
});

describe('a merged line', () => {
  it('is added once, and a pending one becomes the stored one', () => {
    const first = lineOf(message(1, 1));
    expect(mergeLine([first], lineOf(message(1, 1)))).toEqual({ lines: [first], added: false });
    const pending = { ...lineOf(message(2, 1, { me: true, clientMessageId: 'abcdefgh' })), id: null, key: 'cabcdefgh', state: 'pending' as const };
    const { lines, added } = mergeLine([first, pending], lineOf(message(2, 1, { me: true, clientMessageId: 'abcdefgh' })));
    expect(added).toBe(false);
    expect(lines.map((l) => [l.key, l.state])).toEqual([
      ['m1', 'sent'],
      ['m2', 'sent'],
    ]);
  });
});

describe('how a conversation ended', () => {
  it('is the patient, the staff member, or nobody yet', () => {
    expect(endOf(conversation(1))).toBeNull();
    expect(endOf(conversation(1, { status: 'ended', ended_at: '2026-11-25T11:00:00Z', end_reason: 'provider' }))).toEqual({ by: 'me', name: 'Sofia Antoniou', at: '2026-11-25T11:00:00Z' });
    expect(endOf(conversation(1, { status: 'ended', ended_at: '2026-11-25T11:00:00Z', end_reason: 'timeout' }))).toEqual({ by: 'other', name: 'Patient 1', at: '2026-11-25T11:00:00Z' });
  });
});
