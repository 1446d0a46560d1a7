/**
 * The calendar's rules, shared by the server and the web app: event types and their colours
 * (the specification's table), recurrence rules (the RFC 5545 subset the product offers), the
 * fetch windows, and how an appointment is presented.
 */

/** Event types by colour, exactly as the specification's table (keys as the original spells them). */
export const EVENT_TYPES = [
  { type: 'Appointment', color: 'blue' },
  { type: 'Medicine', color: 'indigo' },
  { type: 'Exam', color: 'deep-purple' },
  { type: 'Reminder', color: 'cyan' },
  { type: 'Excercise', color: 'green' },
  { type: 'Operation', color: 'orange' },
  { type: 'Allergy', color: 'grey' },
  { type: 'Recurring Event', color: 'red' },
  { type: 'Developer Event', color: 'violet' },
] as const;

export type EventType = (typeof EVENT_TYPES)[number]['type'];
export type EventColor = (typeof EVENT_TYPES)[number]['color'];
export const EVENT_TYPE_KEYS = EVENT_TYPES.map((t) => t.type) as [EventType, ...EventType[]];
export const EVENT_COLORS = EVENT_TYPES.map((t) => t.color) as [EventColor, ...EventColor[]];

export const colorOfType = (type: EventType): EventColor => EVENT_TYPES.find((t) => t.type === type)!.color;
export const typeOfColor = (color: EventColor): EventType => EVENT_TYPES.find((t) => t.color === color)!.type;

/** Every appointment is blue (the specification). */
export const APPOINTMENT_TYPE: EventType = 'Appointment';
export const APPOINTMENT_COLOR: EventColor = 'blue';

/** The drawer and the dashboard fetch the selected day plus this many days (the specification). */
export const CALENDAR_FETCH_DAYS = 10;
/** The widest window one events request may ask for, in days. */
export const CALENDAR_MAX_WINDOW_DAYS = 366;
/** An event lasts at most this long (a longer span is a recurrence). */
export const EVENT_MAX_DURATION_DAYS = 31;
/** A reminder at most four weeks before. */
export const REMINDER_MAX_MINUTES = 40_320;
/** Reminders sent before every appointment: one day and one hour before. */
export const APPOINTMENT_REMINDER_MINUTES = [1440, 60] as const;
export const EVENT_TITLE_MAX = 200;
export const EVENT_DESCRIPTION_MAX = 2000;

/** The selected day plus CALENDAR_FETCH_DAYS, as the request's start and end (both YYYY-MM-DD, end inclusive). */
export function fetchWindow(selectedDay: string, days = CALENDAR_FETCH_DAYS): { start: string; end: string } {
  const [y, m, d] = selectedDay.split('-').map(Number);
  const end = new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
  return { start: selectedDay, end };
}

// ---------------------------------------------------------------------------------------------
// Recurrence: an RFC 5545 RRULE of the subset the product offers. The event's start is its
// DTSTART (in the event's time zone); the server expands the rule with the `rrule` library.

export const RECURRENCE_FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const RECURRENCE_MAX_INTERVAL = 99;
export const RECURRENCE_MAX_COUNT = 730;

export interface Recurrence {
  freq: RecurrenceFrequency;
  interval: number;
  /** Weekly rules only: the days of the week (none: the start's weekday). */
  byDay: Weekday[];
  /** The last possible occurrence (UTC instant), or null. */
  until: Date | null;
  /** How many occurrences, or null. */
  count: number | null;
}

/** Why a rule is refused: the key of a validation message (validation:recurrence*). */
export type RecurrenceProblem =
  | 'recurrenceInvalid'
  | 'recurrenceFrequency'
  | 'recurrenceInterval'
  | 'recurrenceByDay'
  | 'recurrenceEnd'
  | 'recurrenceCount'
  | 'recurrenceUntil';

const UNTIL_FORMAT = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/;

function parseUntil(value: string): Date | null {
  const m = UNTIL_FORMAT.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '23', mi = '59', s = '59'] = m;
  const date = new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s));
  // 20260231 is not a date.
  if (date.getUTCMonth() !== +mo! - 1 || date.getUTCDate() !== +d! || +h > 23 || +mi > 59 || +s > 59) return null;
  return date;
}

/**
 * Reads a rule ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10", an "RRULE:" prefix allowed).
 * Only what the product offers is accepted: a frequency, an interval, weekdays for weekly rules,
 * and an end by UNTIL or COUNT (not both).
 */
export function parseRecurrence(rule: string): { ok: true; value: Recurrence } | { ok: false; problem: RecurrenceProblem } {
  const text = rule.trim().replace(/^RRULE:/i, '');
  if (!text || text.length > 300) return { ok: false, problem: 'recurrenceInvalid' };
  const parts = new Map<string, string>();
  for (const part of text.split(';')) {
    const [key, value, ...rest] = part.split('=');
    if (!key || value === undefined || rest.length || parts.has(key.toUpperCase())) return { ok: false, problem: 'recurrenceInvalid' };
    parts.set(key.toUpperCase(), value.toUpperCase());
  }
  for (const key of parts.keys()) if (!['FREQ', 'INTERVAL', 'BYDAY', 'UNTIL', 'COUNT'].includes(key)) return { ok: false, problem: 'recurrenceInvalid' };
  const freq = parts.get('FREQ');
  if (!freq || !(RECURRENCE_FREQUENCIES as readonly string[]).includes(freq)) return { ok: false, problem: 'recurrenceFrequency' };
  let interval = 1;
  if (parts.has('INTERVAL')) {
    const raw = parts.get('INTERVAL')!;
    interval = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (!(interval >= 1 && interval <= RECURRENCE_MAX_INTERVAL)) return { ok: false, problem: 'recurrenceInterval' };
  }
  let byDay: Weekday[] = [];
  if (parts.has('BYDAY')) {
    if (freq !== 'WEEKLY') return { ok: false, problem: 'recurrenceByDay' };
    const days = parts.get('BYDAY')!.split(',');
    if (!days.every((d) => (WEEKDAYS as readonly string[]).includes(d)) || new Set(days).size !== days.length) return { ok: false, problem: 'recurrenceByDay' };
    byDay = WEEKDAYS.filter((d) => days.includes(d));
  }
  if (parts.has('UNTIL') && parts.has('COUNT')) return { ok: false, problem: 'recurrenceEnd' };
  let count: number | null = null;
  if (parts.has('COUNT')) {
    const raw = parts.get('COUNT')!;
    count = /^[0-9]{1,4}$/.test(raw) ? Number(raw) : NaN;
    if (!(count >= 1 && count <= RECURRENCE_MAX_COUNT)) return { ok: false, problem: 'recurrenceCount' };
  }
  let until: Date | null = null;
  if (parts.has('UNTIL')) {
    until = parseUntil(parts.get('UNTIL')!);
    if (!until) return { ok: false, problem: 'recurrenceUntil' };
  }
  return { ok: true, value: { freq: freq as RecurrenceFrequency, interval, byDay, until, count } };
}

/** The rule as stored and answered: canonical order, no defaults spelled out. */
export function formatRecurrence(r: Recurrence): string {
  const parts = [`FREQ=${r.freq}`];
  if (r.interval !== 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.byDay.length) parts.push(`BYDAY=${r.byDay.join(',')}`);
  if (r.until) parts.push(`UNTIL=${r.until.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`);
  if (r.count !== null) parts.push(`COUNT=${r.count}`);
  return parts.join(';');
}

// ---------------------------------------------------------------------------------------------
// Appointments as the specification's client sees them.

/** "hh:mm AM/PM" (the specification's appointment_time), of a wall-clock hour and minute. */
export function formatAppointmentTime(hour: number, minute: number): string {
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${String(h12).padStart(2, '0')}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** An appointment is in the past once it has started. */
export const isInPast = (startTime: string | Date, now: Date = new Date()): boolean => new Date(startTime).getTime() <= now.getTime();

const knownZones = new Set<string>();
/** A time zone name the runtime knows (IANA, "Europe/Athens"), or "UTC". Zones found are remembered (the check is costly). */
export function isTimeZone(value: string): boolean {
  if (knownZones.has(value)) return true;
  if (!value || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    if (knownZones.size < 1000) knownZones.add(value);
    return true;
  } catch {
    return false;
  }
}
