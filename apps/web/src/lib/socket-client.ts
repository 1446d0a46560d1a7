import type { ZodType } from 'zod';

/**
 * What every socket client of the app (the live chat, the video visit) does alike: the page's own
 * origin as the socket's base, the server's events checked against their schema, exponential
 * backoff with full jitter between reconnections, and telling a ticket refused for good from a
 * network failure.
 */

/** wss:// (or ws:// on http) + this page's host + `path`. */
export function pageSocketUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}${path}`;
}

/** The delay before reconnection attempt `attempt` (0, 1, …): full jitter over the exponential from `baseMs`, capped at `maxMs`. */
export function backoffDelay(attempt: number, random: () => number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/** Whether a ticket request failed for good (signed out, not allowed, nothing to join) rather than for the network or a limit. */
export function isFinalTicketError(error: unknown): boolean {
  const status = typeof error === 'object' && error && 'status' in error ? (error as { status: unknown }).status : null;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/** A server event: the frame's JSON text checked against the protocol's schema; null when it is not text, not JSON or of an unknown shape (warned once per frame). */
export function parseSocketEvent<T>(data: unknown, schema: ZodType<T>, socket: string): T | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  console.warn(`${socket}: an event of an unknown shape was ignored`, parsed.error.issues);
  return null;
}
