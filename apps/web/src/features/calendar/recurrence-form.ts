import {
  formatRecurrence,
  parseRecurrence,
  RECURRENCE_MAX_COUNT,
  RECURRENCE_MAX_INTERVAL,
  WEEKDAYS,
  type RecurrenceFrequency,
  type Weekday,
} from '@healthbook/shared/calendar';
import { dayjs } from './calendar-time';

/**
 * The "Repeat" part of the event form and the RRULE it makes, with the shared helpers
 * (packages/shared/src/calendar.ts): none, daily, weekly on chosen days, monthly or yearly,
 * every N, ending never, on a date or after N times.
 */
export type Repeat = 'none' | RecurrenceFrequency;
export type RepeatEnd = 'never' | 'until' | 'count';

export interface RecurrenceFields {
  repeat: Repeat;
  /** As typed: a whole number 1-99. */
  interval: string;
  /** Weekly rules: the days (at least one). */
  byDay: Weekday[];
  end: RepeatEnd;
  /** The last day, YYYY-MM-DD (end 'until'). */
  until: string;
  /** As typed: a whole number 1-730 (end 'count'). */
  count: string;
}

export const REPEAT_CHOICES: readonly Repeat[] = ['none', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];

/** The weekday of a calendar day, as RRULE writes it. */
export const weekdayOf = (day: string): Weekday => WEEKDAYS[(dayjs.utc(day).day() + 6) % 7]!;

export const noRecurrence = (startDay: string): RecurrenceFields => ({
  repeat: 'none',
  interval: '1',
  byDay: [weekdayOf(startDay)],
  end: 'never',
  until: '',
  count: '10',
});

const WHOLE = /^[0-9]{1,4}$/;

/** The form's mistakes, each the key of its message in the calendar catalog. */
export type RecurrenceErrors = Partial<Record<'interval' | 'byDay' | 'until' | 'count', string>>;

export function checkRecurrence(fields: RecurrenceFields, startDay: string): RecurrenceErrors {
  if (fields.repeat === 'none') return {};
  const errors: RecurrenceErrors = {};
  const interval = WHOLE.test(fields.interval.trim()) ? Number(fields.interval.trim()) : NaN;
  if (!(interval >= 1 && interval <= RECURRENCE_MAX_INTERVAL)) errors.interval = 'form.errors.interval';
  if (fields.repeat === 'WEEKLY' && fields.byDay.length === 0) errors.byDay = 'form.errors.byDay';
  if (fields.end === 'until' && (!/^\d{4}-\d{2}-\d{2}$/.test(fields.until) || fields.until < startDay)) errors.until = 'form.errors.until';
  if (fields.end === 'count') {
    const count = WHOLE.test(fields.count.trim()) ? Number(fields.count.trim()) : NaN;
    if (!(count >= 1 && count <= RECURRENCE_MAX_COUNT)) errors.count = 'form.errors.count';
  }
  return errors;
}

/**
 * The RRULE of valid fields (null: no repeat). An end date is the end of that day in the
 * event's zone. Weekly on the start's weekday alone needs no BYDAY.
 */
export function recurrenceRule(fields: RecurrenceFields, startDay: string, tz: string): string | null {
  if (fields.repeat === 'none') return null;
  const byDay = fields.repeat === 'WEEKLY' ? WEEKDAYS.filter((d) => fields.byDay.includes(d)) : [];
  return formatRecurrence({
    freq: fields.repeat,
    interval: Number(fields.interval.trim()),
    byDay: byDay.length === 1 && byDay[0] === weekdayOf(startDay) ? [] : byDay,
    until: fields.end === 'until' ? dayjs.tz(`${fields.until}T23:59:59`, tz).toDate() : null,
    count: fields.end === 'count' ? Number(fields.count.trim()) : null,
  });
}

/** The fields of a stored rule (an event being edited; none when it cannot be read). */
export function recurrenceFields(rule: string | null, startDay: string, tz: string): RecurrenceFields {
  const none = noRecurrence(startDay);
  if (!rule) return none;
  const parsed = parseRecurrence(rule);
  if (!parsed.ok) return none;
  const r = parsed.value;
  return {
    repeat: r.freq,
    interval: String(r.interval),
    byDay: r.byDay.length ? r.byDay : none.byDay,
    end: r.until ? 'until' : r.count !== null ? 'count' : 'never',
    until: r.until ? dayjs(r.until).tz(tz).format('YYYY-MM-DD') : '',
    count: r.count !== null ? String(r.count) : none.count,
  };
}
