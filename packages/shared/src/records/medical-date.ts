/**
 * The medical date (hub document §2 "Medical date dialog", §3 "Medical date value", §4 "Medical
 * date selection", §5 "Medical date"): what a patient remembers of when something happened —
 * a day, a month, a year, or only that it was in the past. It is kept as a date and a precision
 * and shown as entered ("14 May 2019", "May 2019", "2019", "In the past"), never as a made-up
 * first of January.
 */

/** The dialog's radio options. */
export const MEDICAL_DATE_MODES = ['today', 'exact', 'month', 'year', 'past'] as const;
export type MedicalDateMode = (typeof MEDICAL_DATE_MODES)[number];

/** How much of the date is known: a stored value's `<field>_part`. "past" has no date. */
export const DATE_PARTS = ['day', 'month', 'year', 'past'] as const;
export type DatePart = (typeof DATE_PARTS)[number];

/** A resolved value: `date` is YYYY-MM-DD (day 01 for a month, 01-01 for a year), null for "past" or no date. */
export interface MedicalDate {
  date: string | null;
  part: DatePart | null;
}

/** What the dialog holds: day, month and year as strings ('' when not chosen), as the spec's value. */
export interface MedicalDateInput {
  mode: MedicalDateMode;
  day: string;
  month: string;
  year: string;
}

/** The year picker: pages of 12 years (4 rows of 3) from 1900, 13 pages. */
export const YEAR_PICKER_START = 1900;
export const YEAR_PICKER_PAGE_SIZE = 12;
export const YEAR_PICKER_PAGES = 13;
/** The other date picker: nothing before this, opening on the year view. */
export const DATE_PICKER_MIN = '1910-01-01';

/** Message keys of the rules (the spec's codes, in the validation catalog). */
export const MEDICAL_DATE_ERRORS = {
  invalid: 'validation:invalid-date',
  beforeBirth: 'validation:date-before-birthday',
  future: 'validation:date-in-future',
  endBeforeStart: 'validation:end-before-start',
} as const;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The number of days of a month (1-12) of a year, leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Today as YYYY-MM-DD in local time (the patient's day, not UTC's). */
export function localToday(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The defaults a radio option sets (§4): Today sets today; Month & Year the current month and year; Year only the year; Exact and Past clear. */
export function medicalDateDefaults(mode: MedicalDateMode, today: string = localToday()): MedicalDateInput {
  const [y, m, d] = today.split('-');
  switch (mode) {
    case 'today':
      return { mode, day: String(Number(d)), month: String(Number(m)), year: y! };
    case 'month':
      return { mode, day: '', month: String(Number(m)), year: y! };
    case 'year':
      return { mode, day: '', month: '', year: y! };
    case 'exact':
    case 'past':
      return { mode, day: '', month: '', year: '' };
  }
}

/** Save is disabled for Exact date until day, month and year are chosen (and likewise for the other modes' parts). */
export function isMedicalDateComplete(input: MedicalDateInput): boolean {
  switch (input.mode) {
    case 'today':
    case 'exact':
      return input.day !== '' && input.month !== '' && input.year !== '';
    case 'month':
      return input.month !== '' && input.year !== '';
    case 'year':
      return input.year !== '';
    case 'past':
      return true;
  }
}

const isIntIn = (s: string, min: number, max: number) => /^[0-9]{1,4}$/.test(s) && Number(s) >= min && Number(s) <= max;

/**
 * The dialog's value resolved to a date and a precision, or the 'invalid-date' message key
 * when the parts do not make a date (31 February, month 13, an empty year...).
 */
export function resolveMedicalDate(input: MedicalDateInput): MedicalDate | string {
  if (input.mode === 'past') return { date: null, part: 'past' };
  if (!isIntIn(input.year, 1, 9999)) return MEDICAL_DATE_ERRORS.invalid;
  const year = Number(input.year);
  if (input.mode === 'year') return { date: `${pad(year, 4)}-01-01`, part: 'year' };
  if (!isIntIn(input.month, 1, 12)) return MEDICAL_DATE_ERRORS.invalid;
  const month = Number(input.month);
  if (input.mode === 'month') return { date: `${pad(year, 4)}-${pad(month)}-01`, part: 'month' };
  if (!isIntIn(input.day, 1, daysInMonth(year, month))) return MEDICAL_DATE_ERRORS.invalid;
  return { date: `${pad(year, 4)}-${pad(month)}-${pad(Number(input.day))}`, part: 'day' };
}

/** A stored value back into the dialog's parts (for editing). No date: the Exact date option, empty. */
export function medicalDateInput(value: MedicalDate): MedicalDateInput {
  if (value.part === 'past') return { mode: 'past', day: '', month: '', year: '' };
  if (!value.date || !value.part) return { mode: 'exact', day: '', month: '', year: '' };
  const [y, m, d] = value.date.split('-');
  if (value.part === 'year') return { mode: 'year', day: '', month: '', year: String(Number(y)) };
  if (value.part === 'month') return { mode: 'month', day: '', month: String(Number(m)), year: String(Number(y)) };
  return { mode: 'exact', day: String(Number(d)), month: String(Number(m)), year: String(Number(y)) };
}

/** A YYYY-MM-DD date that exists. */
export function isValidIsoDate(value: string): boolean {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** The date cut to its precision, for comparing: "2019", "2019-05" or "2019-05-14". */
function truncated(date: string, part: 'year' | 'month' | 'day'): string {
  return part === 'year' ? date.slice(0, 4) : part === 'month' ? date.slice(0, 7) : date;
}

const RANK = { year: 0, month: 1, day: 2 } as const;
/** The coarser of two precisions. */
const coarser = (a: 'year' | 'month' | 'day', b: 'year' | 'month' | 'day') => (RANK[a] <= RANK[b] ? a : b);

export interface DateRuleContext {
  /** The patient's date of birth (YYYY-MM-DD), when known. */
  dob?: string | null;
  /** Today (YYYY-MM-DD) where the patient is. */
  today: string;
}

/**
 * The rules of one stored value (§5): a valid date for its precision; not before the date of
 * birth, not after today — each compared at the value's own precision (a year equal to the
 * birth year is not before birth). Answers a message key, or null when it holds.
 */
export function checkMedicalDate(value: MedicalDate, ctx: DateRuleContext): string | null {
  if (value.part === 'past' || value.part === null) return value.date === null ? null : MEDICAL_DATE_ERRORS.invalid;
  if (value.date === null || !isValidIsoDate(value.date)) return MEDICAL_DATE_ERRORS.invalid;
  const part = value.part;
  if (ctx.dob && truncated(value.date, part) < truncated(ctx.dob, part)) return MEDICAL_DATE_ERRORS.beforeBirth;
  if (truncated(value.date, part) > truncated(ctx.today, part)) return MEDICAL_DATE_ERRORS.future;
  return null;
}

/** end-before-start: compared at the coarser precision of the two; "past" or no date on either side: nothing to compare. */
export function isEndBeforeStart(start: MedicalDate, end: MedicalDate): boolean {
  if (!start.date || !end.date || !start.part || !end.part || start.part === 'past' || end.part === 'past') return false;
  const part = coarser(start.part, end.part);
  return truncated(end.date, part) < truncated(start.date, part);
}

/**
 * The parts a value is shown with, as entered: nothing (no date), "past", a year, a month of a
 * year, or a day. The apps format them in the reader's language (formatMedicalDate).
 */
export function formatMedicalDate(value: MedicalDate, locale: string, pastText: string): string {
  if (value.part === 'past') return pastText;
  if (!value.date || !value.part) return '';
  const [y, m, d] = value.date.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  if (value.part === 'year') return String(y);
  if (value.part === 'month') return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at);
  // As entered, day first ("14 May 2019"): plain English would otherwise give the US order ("May 14, 2019").
  const dayLocale = locale === 'en' ? 'en-GB' : locale;
  return new Intl.DateTimeFormat(dayLocale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at);
}
