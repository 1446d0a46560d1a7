import { describe, expect, it } from 'vitest';
import {
  CHAT_FINAL_CLOSE_CODES,
  CHAT_CLOSE,
  CHAT_SLICE_CHARS,
  ServerEventSchema,
  SocketQuerySchema,
  base64DecodedLength,
  chatSocketUrl,
  classifyClientFrame,
  formatChatExitTime,
  isStrictBase64,
  parseClientFrame,
} from './chat-protocol';

const parsed = (frame: unknown) => parseClientFrame(JSON.stringify(frame));
const kindOf = (frame: unknown) => {
  const result = parsed(frame);
  return result.ok ? result.frame.kind : result.reason;
};

describe('client frames', () => {
  it('tells the original protocol’s sendMessage shapes apart', () => {
    expect(kindOf({ action: 'sendMessage', Msg: 'getPosition' })).toBe('heartbeat');
    expect(kindOf({ action: 'sendMessage', Msg: 'Hello', contentType: 'text/plain', ReceiverId: 12 })).toBe('text');
    expect(kindOf({ action: 'sendMessage', Msg: 'Hello' })).toBe('text');
    expect(kindOf({ action: 'sendMessage', Msg: 'aGk=', contentType: 'image/png', fileName: 'a.png' })).toBe('file');
    expect(kindOf({ action: 'sendMessage', Msg: 'aGk=', chunkId: 0, fileName: 'a.pdf', chunkSize: 4, isEOF: true })).toBe('slice');
    expect(kindOf({ action: 'endChat' })).toBe('endChat');
    expect(kindOf({ action: 'typing', conversationId: 3 })).toBe('typing');
  });

  it('a text message defaults to text/plain; ReceiverId may be digits', () => {
    const result = parsed({ action: 'sendMessage', Msg: 'Hi', ReceiverId: '42' });
    expect(result).toEqual({ ok: true, frame: { kind: 'text', action: 'sendMessage', Msg: 'Hi', contentType: 'text/plain', ReceiverId: 42 } });
  });

  it('a text frame with a file name but a text type stays text', () => {
    expect(kindOf({ action: 'sendMessage', Msg: 'Hi', contentType: 'text/plain', fileName: 'x' })).toBe('text');
  });

  it('refuses what is not JSON, an unknown action, and wrong field types or sizes', () => {
    expect(parseClientFrame('{oops')).toEqual({ ok: false, reason: 'json' });
    expect(parseClientFrame('null')).toEqual({ ok: false, reason: 'shape' });
    expect(parseClientFrame('[1,2]')).toEqual({ ok: false, reason: 'shape' });
    expect(kindOf({ action: 'dance' })).toBe('shape');
    expect(kindOf({ Msg: 'no action' })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 5 })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 'x'.repeat(4001) })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 'hi', ReceiverId: 'abc' })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 'hi', clientMessageId: 'bad id!' })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 'A'.repeat(CHAT_SLICE_CHARS + 4), chunkId: 0, fileName: 'a', chunkSize: CHAT_SLICE_CHARS + 4, isEOF: false })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 'AAAA', chunkId: -1, fileName: 'a', chunkSize: 4, isEOF: false })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 'AAAA', chunkId: 0, fileName: 'a', chunkSize: 4 })).toBe('shape');
    expect(kindOf({ action: 'sendMessage', Msg: 'AAAA', chunkId: 0, fileName: '', chunkSize: 4, isEOF: true })).toBe('shape');
  });

  it('classifies without parsing (null for anything without a known action)', () => {
    expect(classifyClientFrame('text')).toBeNull();
    expect(classifyClientFrame({ action: 'sendMessage', Msg: 'getPosition', fileName: 'x', contentType: 'image/png' })).toBe('file');
  });
});

describe('server events', () => {
  it('every event type parses with the original field names', () => {
    const events = [
      { type: 'welcome', role: 'patient', userId: 1, conversations: [] },
      { type: 'position', conversationId: 3, Position: 2 },
      {
        type: 'message',
        id: 9,
        conversationId: 3,
        Message: 'Hello',
        SenderName: 'Sofia',
        ProviderType: 'coach',
        contentType: 'text/plain',
        me: false,
        sentAt: '2026-11-25T10:00:00.000Z',
        kind: 'greeting',
        file: null,
        clientMessageId: null,
      },
      { type: 'started', conversationId: 3, provider_name: 'Sofia', provider_type: 'coach', patient_name: 'Maria', patient_id: 4, reason_for_visit: 'Stress', startedAt: '2026-11-25T10:00:00.000Z' },
      { type: 'ended', conversationId: 3, Message: 'Sofia exited the chat session at 2026-11-25T10:00:00.000Z', SenderName: 'Sofia', endedAt: '2026-11-25T10:00:00.000Z', reason: 'provider' },
      { type: 'ack', received: 'ok', conversationId: 3, chunkId: 4, id: null, clientMessageId: 'abcdefgh' },
      { type: 'error', code: 'sliceOrder', Message: '…', clientMessageId: null, chunkId: 2 },
      { type: 'typing', conversationId: 3, SenderName: 'Maria' },
      { type: 'queue', queue: [{ conversation_id: 3, patient_id: 4, patient_name: 'Maria', provider_type: 'coach', reason_for_visit: 'Stress', queued_at: '2026-11-25T10:00:00.000Z', position: 1 }] },
    ];
    for (const event of events) expect(ServerEventSchema.parse(event)).toEqual(event);
    expect(() => ServerEventSchema.parse({ type: 'ack', received: 'no', conversationId: 1, chunkId: null, id: null, clientMessageId: null })).toThrow();
  });
});

describe('the socket query', () => {
  it('reads the spec’s parameters as strings', () => {
    const query = SocketQuerySchema.parse({ ticket: 'a'.repeat(43), userId: '7', isPatient: 'true', patientId: '9', reason: 'stress', providerType: 'coach', orgName: 'healthbook', credential: '', lastMessageId: '120' });
    expect(query).toMatchObject({ userId: 7, isPatient: true, patientId: 9, lastMessageId: 120 });
    expect(SocketQuerySchema.safeParse({ ticket: 'short', userId: '7' }).success).toBe(false);
    expect(SocketQuerySchema.safeParse({ ticket: 'a'.repeat(43), userId: '7', isPatient: 'yes' }).success).toBe(false);
  });

  it('builds the address with the query encoded', () => {
    expect(chatSocketUrl('ws://h/api/v1/chat/socket/', { ticket: 'abc', orgName: 'a b', skip: undefined })).toBe('ws://h/api/v1/chat/socket/?ticket=abc&orgName=a%20b');
  });
});

describe('helpers', () => {
  it('formats the exit time in local time as yyyy-MM-DD hh:mm', () => {
    expect(formatChatExitTime('2026-11-25T22:05:00.000Z', 'Europe/Athens')).toBe('2026-11-26 00:05');
    expect(formatChatExitTime('2026-07-01T09:30:00.000Z', 'UTC')).toBe('2026-07-01 09:30');
  });

  it('checks strict base64 and its decoded size', () => {
    expect(isStrictBase64('aGk=')).toBe(true);
    expect(isStrictBase64('aGk')).toBe(false);
    expect(isStrictBase64('aG k=')).toBe(false);
    expect(isStrictBase64('a-_=')).toBe(false);
    expect(base64DecodedLength('aGk=')).toBe(2);
    expect(base64DecodedLength(`${'AAAA'.repeat(10_666)}AAA=`)).toBe(32_000); // 32,000 zero bytes (no Buffer: shared has no Node types)
  });

  it('the final close codes are the refusals and the end, not a restart', () => {
    expect(CHAT_FINAL_CLOSE_CODES).toContain(CHAT_CLOSE.ticket);
    expect(CHAT_FINAL_CLOSE_CODES).not.toContain(CHAT_CLOSE.restarting);
  });
});
