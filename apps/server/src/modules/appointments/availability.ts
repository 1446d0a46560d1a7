import { DateTime } from 'luxon';
import type { AvailabilityExceptionRow, WeeklyHoursRow } from '../../db/schema';

export interface Schedule {
  slot_minutes: number;
  timezone: string;
  weekly: WeeklyHoursRow[];
  exceptions: AvailabilityExceptionRow[];
}

export interface SlotTime {
  start: Date;
  end: Date;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Problems of a schedule, by field ("weekly.2", "exceptions.0"): a range must end after it
 * starts and hold at least one slot, ranges of one day must not overlap, an exception is a day
 * off (no hours) or whole hours, one exception per date.
 */
export function scheduleProblems(schedule: Schedule): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (field: string, key: string) => (problems[field] ??= []).push(key);
  const checkRanges = (ranges: Array<{ start: string; end: string; field: string }>) => {
    const sorted = [...ranges].sort((a, b) => minutes(a.start) - minutes(b.start));
    sorted.forEach((r, i) => {
      if (minutes(r.end) - minutes(r.start) < schedule.slot_minutes) add(r.field, 'validation:hoursRange');
      else if (i > 0 && minutes(r.start) < minutes(sorted[i - 1]!.end)) add(r.field, 'validation:hoursOverlap');
    });
  };
  for (let day = 1; day <= 7; day++) {
    checkRanges(schedule.weekly.flatMap((w, i) => (w.weekday === day ? [{ start: w.start, end: w.end, field: `weekly.${i}` }] : [])));
  }
  const byDate = new Map<string, Array<{ start: string; end: string; field: string }>>();
  schedule.exceptions.forEach((e, i) => {
    const field = `exceptions.${i}`;
    if ((e.start === null) !== (e.end === null)) return add(field, 'validation:hoursRange');
    const list = byDate.get(e.date) ?? [];
    if (e.start === null && (list.length || byDate.has(e.date))) add(field, 'validation:exceptionDuplicate');
    if (e.start !== null) list.push({ start: e.start, end: e.end!, field });
    byDate.set(e.date, list);
  });
  for (const ranges of byDate.values()) checkRanges(ranges);
  return problems;
}

/**
 * The slots a schedule offers on the calendar days [fromDay, toDay] (the provider's zone):
 * each day's ranges — the exceptions of that date if there are any (a day off has a range-less
 * exception), else the weekly hours of its weekday — cut into slots of slot_minutes. Wall times
 * are placed in the zone (a slot in a daylight-saving gap moves with the clock).
 */
export function slotsOf(schedule: Schedule, fromDay: string, toDay: string): SlotTime[] {
  const zone = schedule.timezone;
  const out: SlotTime[] = [];
  const last = DateTime.fromISO(toDay, { zone });
  for (let day = DateTime.fromISO(fromDay, { zone }); day <= last; day = day.plus({ days: 1 })) {
    const date = day.toISODate()!;
    const exceptions = schedule.exceptions.filter((e) => e.date === date);
    const ranges = exceptions.length
      ? exceptions.flatMap((e) => (e.start && e.end ? [{ start: e.start, end: e.end }] : []))
      : schedule.weekly.filter((w) => w.weekday === day.weekday);
    for (const range of ranges) {
      for (let m = minutes(range.start); m + schedule.slot_minutes <= minutes(range.end); m += schedule.slot_minutes) {
        const start = day.set({ hour: Math.floor(m / 60), minute: m % 60, second: 0, millisecond: 0 });
        out.push({ start: start.toJSDate(), end: start.plus({ minutes: schedule.slot_minutes }).toJSDate() });
      }
    }
  }
  return out.sort((a, b) => a.start.getTime() - b.start.getTime());
}
