import { DateTime } from 'luxon';
import rrulePkg from 'rrule';
import { parseRecurrence, type Recurrence, type Weekday } from '@healthbook/shared';

// rrule is CommonJS: its named exports come through the default export under Node's ESM.
const { RRule } = rrulePkg;
type RRuleInstance = InstanceType<typeof RRule>;

const WEEKDAY = { MO: RRule.MO, TU: RRule.TU, WE: RRule.WE, TH: RRule.TH, FR: RRule.FR, SA: RRule.SA, SU: RRule.SU } satisfies Record<Weekday, unknown>;
const FREQ = { DAILY: RRule.DAILY, WEEKLY: RRule.WEEKLY, MONTHLY: RRule.MONTHLY, YEARLY: RRule.YEARLY } as const;

/** A series: its first occurrence, how long each lasts, its rule, and the zone its wall clock is in. */
export interface Series {
  start: Date;
  end: Date;
  rule: string;
  timezone: string;
}

export interface Occurrence {
  start: Date;
  end: Date;
}

/**
 * Recurrence in the event's own time zone: a weekly 09:00 in Europe/Athens stays 09:00 when the
 * clocks change. The rule is expanded by `rrule` on "floating" dates (the wall clock written as
 * if it were UTC) and each occurrence is placed back in the zone with luxon; a wall time that
 * does not exist that day (the spring-forward gap) moves forward, as calendar apps do.
 */
const toFloating = (instant: Date, zone: string): Date => {
  const wall = DateTime.fromJSDate(instant, { zone });
  return new Date(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second));
};
const fromFloating = (floating: Date, zone: string): Date =>
  DateTime.fromObject(
    { year: floating.getUTCFullYear(), month: floating.getUTCMonth() + 1, day: floating.getUTCDate(), hour: floating.getUTCHours(), minute: floating.getUTCMinutes(), second: floating.getUTCSeconds() },
    { zone },
  ).toJSDate();

function buildRule(series: Series, recurrence: Recurrence): RRuleInstance {
  return new RRule({
    freq: FREQ[recurrence.freq],
    interval: recurrence.interval,
    dtstart: toFloating(series.start, series.timezone),
    ...(recurrence.byDay.length ? { byweekday: recurrence.byDay.map((d) => WEEKDAY[d]) } : {}),
    ...(recurrence.count !== null ? { count: recurrence.count } : {}),
    ...(recurrence.until ? { until: toFloating(recurrence.until, series.timezone) } : {}),
  });
}

function parsed(rule: string): Recurrence {
  const result = parseRecurrence(rule);
  if (!result.ok) throw new Error(`invalid stored recurrence: ${result.problem}`);
  return result.value;
}

/** The occurrences of a series that overlap [from, to). */
export function occurrencesBetween(series: Series, from: Date, to: Date): Occurrence[] {
  const rule = buildRule(series, parsed(series.rule));
  const duration = series.end.getTime() - series.start.getTime();
  // Floating bounds widened by a day each side (offsets and the event's length), then trimmed exactly.
  const day = 86_400_000;
  const lower = new Date(toFloating(new Date(from.getTime() - duration), series.timezone).getTime() - day);
  const upper = new Date(toFloating(to, series.timezone).getTime() + day);
  const out: Occurrence[] = [];
  for (const floating of rule.between(lower, upper, true)) {
    const start = fromFloating(floating, series.timezone);
    const end = new Date(start.getTime() + duration);
    if (start < to && end > from) out.push({ start, end });
  }
  return out;
}

/** The end of the series' last occurrence, or null when it never ends. */
export function seriesEnd(series: Series): Date | null {
  const recurrence = parsed(series.rule);
  if (recurrence.count === null && !recurrence.until) return null;
  const rule = buildRule(series, recurrence);
  const all = rule.all();
  const last = all[all.length - 1];
  // A rule whose end comes before its first occurrence still has the event itself.
  if (!last) return series.end;
  return new Date(fromFloating(last, series.timezone).getTime() + (series.end.getTime() - series.start.getTime()));
}

/** The instants a window of calendar days covers in a zone: [first day 00:00, day after the last 00:00). */
export function windowInstants(startDay: string, endDay: string, zone: string): { from: Date; to: Date } {
  const from = DateTime.fromISO(startDay, { zone }).startOf('day');
  const to = DateTime.fromISO(endDay, { zone }).plus({ days: 1 }).startOf('day');
  return { from: from.toJSDate(), to: to.toJSDate() };
}

/** Whole days from one calendar day to another (end included: the same day is 1). */
export function daysInWindow(startDay: string, endDay: string): number {
  return Math.round((Date.parse(`${endDay}T00:00:00Z`) - Date.parse(`${startDay}T00:00:00Z`)) / 86_400_000) + 1;
}

/** An instant's calendar day and "hh:mm AM/PM" wall clock in a zone. */
export function wallClock(instant: Date, zone: string): { date: string; hour: number; minute: number } {
  const wall = DateTime.fromJSDate(instant, { zone });
  return { date: wall.toISODate()!, hour: wall.hour, minute: wall.minute };
}
