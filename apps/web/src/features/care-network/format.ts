/** A day in the reader's language ("12 Mar 2026"). */
export function formatDay(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}

/** A moment in the reader's language, to the minute. */
export function formatMoment(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * When a line of "who saw my record" happened: one event to the minute ("27 Nov 2026, 09:12"),
 * several on one day as that day and the span of times ("27 Nov 2026, 09:12–17:40").
 */
export function lineWhen(entry: { at: string; first_at: string; count: number }, language: string, timeZone?: string): string {
  const last = new Date(entry.at);
  const first = new Date(entry.first_at);
  if (Number.isNaN(last.getTime())) return entry.at;
  const zone = timeZone ? { timeZone } : {};
  if (entry.count <= 1 || Number.isNaN(first.getTime())) return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', ...zone }).format(last);
  const day = new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', year: 'numeric', ...zone }).format(last);
  const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', ...zone });
  return `${day}, ${time.format(first)}–${time.format(last)}`;
}
