/**
 * Video visits (issue 29): when a telehealth appointment's call may be joined. One rule, for the
 * server (which refuses a join outside it) and the pages (which offer "Join video visit" or say
 * when it opens).
 */

/** The call opens this many minutes before the appointment starts. */
export const VISIT_EARLY_MINUTES = 10;
/** What one "extend" by the provider adds to the end of the call's window. */
export const VISIT_EXTEND_MINUTES = 15;
/** The longest a provider may extend a call past the appointment's end, in all. */
export const VISIT_EXTEND_MAX_MINUTES = 120;

export interface VisitWindow {
  /** From when the patient may wait and the provider may admit. */
  opensAt: Date;
  /** Until when: the appointment's end, or later when the provider extended it. */
  closesAt: Date;
}

/** Where a moment stands against a window: before it opens, inside it, or after it closed. */
export type VisitPhase = 'early' | 'open' | 'over';

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * The window of an appointment's call: from VISIT_EARLY_MINUTES before its start to its end, or
 * to `extendedUntil` when the provider extended it (never earlier than the end, never more than
 * VISIT_EXTEND_MAX_MINUTES after it).
 */
export function visitWindow(appointment: { start: Date | string; end: Date | string }, extendedUntil?: Date | string | null): VisitWindow {
  const start = toDate(appointment.start);
  const end = toDate(appointment.end);
  const latest = end.getTime() + VISIT_EXTEND_MAX_MINUTES * 60_000;
  const extended = extendedUntil ? Math.min(Math.max(toDate(extendedUntil).getTime(), end.getTime()), latest) : end.getTime();
  return { opensAt: new Date(start.getTime() - VISIT_EARLY_MINUTES * 60_000), closesAt: new Date(extended) };
}

/** The phase of `now` in the window: 'early' before it opens, 'open' from its opening up to (not at) its close, 'over' after. */
export function visitPhase(window: VisitWindow, now: Date = new Date()): VisitPhase {
  const t = now.getTime();
  if (t < window.opensAt.getTime()) return 'early';
  return t < window.closesAt.getTime() ? 'open' : 'over';
}

/** The window's end after one more extension by the provider (bounded by VISIT_EXTEND_MAX_MINUTES past the appointment's end). */
export function extendedVisitEnd(appointment: { end: Date | string }, window: VisitWindow, now: Date = new Date()): Date {
  const from = Math.max(window.closesAt.getTime(), now.getTime());
  const latest = toDate(appointment.end).getTime() + VISIT_EXTEND_MAX_MINUTES * 60_000;
  return new Date(Math.min(from + VISIT_EXTEND_MINUTES * 60_000, latest));
}
