import { describe, expect, it } from 'vitest';
import type { QueueEntry } from '@healthbook/shared/chat-protocol';
import { mergeQueue, reasonLabel, sortQueue, splitDuration, waitedSince, waitingText, withoutConversation } from './queue';

const entry = (conversation_id: number, queued_at: string, position: number, provider_type: QueueEntry['provider_type'] = 'coach'): QueueEntry => ({
  conversation_id,
  patient_id: conversation_id * 10,
  patient_name: `Patient ${conversation_id}`,
  provider_type,
  reason_for_visit: 'stress',
  queued_at,
  position,
});

describe('the queue', () => {
  it('lists who has waited longest first, across the queues served, then by position and conversation', () => {
    const queue = [
      entry(3, '2026-11-25T10:05:00Z', 2),
      entry(1, '2026-11-25T10:01:00Z', 1, 'provider'),
      entry(2, '2026-11-25T10:03:00Z', 1),
      entry(5, '2026-11-25T10:05:00Z', 2),
      entry(4, '2026-11-25T10:05:00Z', 1, 'provider'),
    ];
    expect(sortQueue(queue).map((e) => e.conversation_id)).toEqual([1, 2, 4, 3, 5]);
    // The list given is left as it was.
    expect(queue[0]!.conversation_id).toBe(3);
  });

  it("keeps the reader's words for the patients already listed, and says when someone new came", () => {
    const listed = [{ ...entry(1, '2026-11-25T10:01:00Z', 1), reason_for_visit: 'Άγχος ή στρες' }];
    const incoming = [entry(2, '2026-11-25T10:02:00Z', 2), { ...entry(1, '2026-11-25T10:01:00Z', 1), reason_for_visit: 'Stress or anxiety' }];
    const merged = mergeQueue(listed, incoming);
    expect(merged.queue.map((e) => [e.conversation_id, e.reason_for_visit])).toEqual([
      [1, 'Άγχος ή στρες'],
      [2, 'stress'],
    ]);
    expect(merged.fresh).toBe(true);
    expect(mergeQueue(merged.queue, [incoming[1]!]).fresh).toBe(false);
    expect(mergeQueue(undefined, []).fresh).toBe(false);
  });

  it('drops a conversation taken', () => {
    expect(withoutConversation([entry(1, '2026-11-25T10:00:00Z', 1), entry(2, '2026-11-25T10:01:00Z', 2)], 1).map((e) => e.conversation_id)).toEqual([2]);
  });
});

describe('the waiting time', () => {
  it('splits into hours, minutes and seconds, never below zero', () => {
    expect(splitDuration(0)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
    expect(splitDuration(59_999)).toEqual({ hours: 0, minutes: 0, seconds: 59 });
    expect(splitDuration(60_000)).toEqual({ hours: 0, minutes: 1, seconds: 0 });
    expect(splitDuration(3_599_000)).toEqual({ hours: 0, minutes: 59, seconds: 59 });
    expect(splitDuration(3_600_000 + 2 * 60_000 + 5_000)).toEqual({ hours: 1, minutes: 2, seconds: 5 });
    // The server's clock a little ahead of the browser's.
    expect(splitDuration(-1_500)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
  });

  it('counts from the time the patient joined the queue', () => {
    expect(waitedSince('2026-11-25T10:00:00Z', Date.parse('2026-11-25T10:03:07Z'))).toEqual({ hours: 0, minutes: 3, seconds: 7 });
  });

  it('reads as seconds, minutes and seconds, or hours and minutes', () => {
    expect(waitingText({ hours: 0, minutes: 0, seconds: 45 })).toEqual({ key: 'waiting.seconds', values: { s: '45' } });
    expect(waitingText({ hours: 0, minutes: 3, seconds: 5 })).toEqual({ key: 'waiting.minutes', values: { m: '3', s: '05' } });
    expect(waitingText({ hours: 2, minutes: 4, seconds: 59 })).toEqual({ key: 'waiting.hours', values: { h: '2', m: '04' } });
  });
});

describe('the reason in words', () => {
  it('translates a reason the catalogue offers, from its value or from the words', () => {
    expect(reasonLabel('stress', 'Stress or anxiety')).toEqual({ key: 'chat:reasons.stress' });
    expect(reasonLabel(null, 'test-results')).toEqual({ key: 'chat:reasons.test-results' });
  });

  it('shows anything else as the server wrote it', () => {
    expect(reasonLabel(null, 'Stress or anxiety')).toEqual({ text: 'Stress or anxiety' });
    expect(reasonLabel('unknown', '')).toEqual({ text: 'unknown' });
  });
});
