/**
 * What every socket client of the app (the live chat, the video visit) does alike: the page's own
 * origin as the socket's base, exponential backoff with full jitter between reconnections, and
 * telling a ticket refused for good from a network failure.
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
