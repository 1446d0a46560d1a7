import { CHAT_REASONS } from '@healthbook/shared/chat';
import type { QueueEntry } from '@healthbook/shared/chat-protocol';

/**
 * The queue as the console lists it: who has waited longest first (the staff member may serve
 * both queues, whose positions each start at 1), then by position, then by conversation.
 */
export function sortQueue(queue: readonly QueueEntry[]): QueueEntry[] {
  return [...queue].sort(
    (a, b) => Date.parse(a.queued_at) - Date.parse(b.queued_at) || a.position - b.position || a.conversation_id - b.conversation_id,
  );
}

/**
 * The queue of a socket `queue` event, kept in the reader's language: the socket speaks the
 * browser's language, the REST answer the app's, so a patient already listed keeps the words
 * the REST answer gave. `fresh` says whether someone new came (then the REST answer is asked again).
 */
export function mergeQueue(listed: readonly QueueEntry[] | undefined, incoming: readonly QueueEntry[]): { queue: QueueEntry[]; fresh: boolean } {
  const words = new Map((listed ?? []).map((e) => [e.conversation_id, e.reason_for_visit]));
  const queue = incoming.map((e) => (words.has(e.conversation_id) ? { ...e, reason_for_visit: words.get(e.conversation_id)! } : e));
  return { queue: sortQueue(queue), fresh: incoming.some((e) => !words.has(e.conversation_id)) };
}

/** The queue without one conversation (taken by this staff member, before the server's next `queue` event). */
export const withoutConversation = (queue: readonly QueueEntry[], conversationId: number): QueueEntry[] =>
  queue.filter((entry) => entry.conversation_id !== conversationId);

export interface Duration {
  hours: number;
  minutes: number;
  seconds: number;
}

/** A waiting time in whole hours, minutes and seconds; never negative (clocks differ a little). */
export function splitDuration(ms: number): Duration {
  const total = Math.max(0, Math.floor(ms / 1000));
  return { hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

/** How long a patient has waited at `now`. */
export const waitedSince = (queuedAt: string, now: number): Duration => splitDuration(now - Date.parse(queuedAt));

/**
 * The locale key and values of a waiting time: "45 s", "3 min 05 s", "1 h 02 min". The keys
 * are those of the `chatConsole` catalog's `waiting` group.
 */
export function waitingText({ hours, minutes, seconds }: Duration): { key: 'waiting.seconds' | 'waiting.minutes' | 'waiting.hours'; values: Record<string, string> } {
  const two = (n: number) => String(n).padStart(2, '0');
  if (hours > 0) return { key: 'waiting.hours', values: { h: String(hours), m: two(minutes) } };
  if (minutes > 0) return { key: 'waiting.minutes', values: { m: String(minutes), s: two(seconds) } };
  return { key: 'waiting.seconds', values: { s: String(seconds) } };
}

const KNOWN_REASONS = new Set(Object.values(CHAT_REASONS).flat());

/**
 * The reason of a chat in words: a reason the catalogue offers is shown in the reader's language
 * (the `chat` namespace's `reasons.<value>`), anything else as the server wrote it. Answers the
 * locale key, or the text itself.
 */
export function reasonLabel(reason: string | null | undefined, reasonForVisit: string): { key: string } | { text: string } {
  if (reason && KNOWN_REASONS.has(reason)) return { key: `chat:reasons.${reason}` };
  if (KNOWN_REASONS.has(reasonForVisit)) return { key: `chat:reasons.${reasonForVisit}` };
  return { text: reasonForVisit || reason || '' };
}
