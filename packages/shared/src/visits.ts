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

/**
 * The visit's note (issue 29, item 4): the provider writes it once the visit has started (the
 * patient side admitted), and it lands in the patient's record as a medical visit with the
 * provider's name. It may be written and changed until this many days after the appointment's end.
 */
export const VISIT_NOTE_DAYS = 7;

/** The medical-visit fields the provider writes in a visit's note; `professional` and `date` are the server's (the provider's name, the visit's day). */
export const VISIT_NOTE_FIELDS = ['reason', 'symptoms', 'findings', 'diagnosis', 'treatment', 'note'] as const;

/** The `code` beside `detail` in the 404 of GET …/visit/note/ when no note has been written yet (the appointment's own 404 carries none). */
export const VISIT_NOTE_NONE = 'visit_note_none';

/** Until when a visit's note may be written: VISIT_NOTE_DAYS after the appointment's end. */
export function visitNoteUntil(appointment: { end: Date | string }): Date {
  return new Date(toDate(appointment.end).getTime() + VISIT_NOTE_DAYS * 86_400_000);
}
