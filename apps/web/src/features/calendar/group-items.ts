import type { CalendarItem } from '@healthbook/shared/contracts/calendar';
import { addDays, dayjs, dayOf, inZone } from './calendar-time';

/** The items of one day, in the order they start. */
export interface DayGroup {
  day: string;
  items: CalendarItem[];
}

const byStart = (a: CalendarItem, b: CalendarItem) => {
  const diff = Date.parse(a.start_time) - Date.parse(b.start_time);
  // All-day items first on their day; then by kind and id, so that the order is stable.
  return diff || Number(b.all_day) - Number(a.all_day) || a.kind.localeCompare(b.kind) || a.event_id - b.event_id;
};

/** The first day of an item in a zone (an all-day item's own day). */
type Span = Pick<CalendarItem, 'start_time' | 'end_time'>;

export const firstDayOf = (item: Span, tz: string): string => dayOf(item.start_time, tz);

/** The last day an item covers in a zone (its end is exclusive: ending at midnight ends the day before). */
export function lastDayOf(item: Span, tz: string): string {
  const end = inZone(item.end_time, tz);
  const endDay = end.format('YYYY-MM-DD');
  const first = firstDayOf(item, tz);
  const atMidnight = end.hour() === 0 && end.minute() === 0 && end.second() === 0;
  return atMidnight && endDay > first ? addDays(endDay, -1) : endDay;
}

/**
 * The items of a window grouped by day in the user's zone, days in order. An item that began
 * before the window (it is still going on) is listed on the window's first day.
 */
export function groupByDay(items: readonly CalendarItem[], tz: string, windowStart?: string): DayGroup[] {
  const groups = new Map<string, CalendarItem[]>();
  for (const item of [...items].sort(byStart)) {
    let day = firstDayOf(item, tz);
    if (windowStart && day < windowStart) day = windowStart;
    const list = groups.get(day);
    if (list) list.push(item);
    else groups.set(day, [item]);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, list]) => ({ day, items: list }));
}

/** Every day on which an item takes place (the dots of the month picker). */
export function daysWithItems(items: readonly Span[], tz: string): Set<string> {
  const days = new Set<string>();
  for (const item of items) {
    const last = lastDayOf(item, tz);
    // An event lasts at most 31 days (EVENT_MAX_DURATION_DAYS); the bound keeps a bad answer harmless.
    for (let day = firstDayOf(item, tz), n = 0; day <= last && n < 62; day = addDays(day, 1), n++) days.add(day);
  }
  return days;
}

/** Which heading a day gets: today, tomorrow, yesterday, or its date. */
export function dayLabel(day: string, today: string): 'today' | 'tomorrow' | 'yesterday' | 'date' {
  if (day === today) return 'today';
  if (day === addDays(today, 1)) return 'tomorrow';
  if (day === addDays(today, -1)) return 'yesterday';
  return 'date';
}

/** A stable key of an item of a window (a recurring event appears once per occurrence). */
export const itemKey = (item: CalendarItem): string => `${item.kind}-${item.event_id}-${item.start_time}`;

/** The hours a week or a day shows (in the browser's zone, FullCalendar's): 07:00 to 21:00, widened to hold every item of the window. */
export function shownHours(items: ReadonlyArray<{ start_time: string; end_time: string; all_day: boolean }>): { min: string; max: string } {
  let min = 7;
  let max = 21;
  for (const item of items) {
    if (item.all_day) continue;
    const start = dayjs(item.start_time);
    const end = dayjs(item.end_time);
    const endHour = end.isSame(start, 'day') ? end.hour() + (end.minute() || end.second() ? 1 : 0) : 24;
    min = Math.min(min, start.hour());
    max = Math.max(max, endHour);
  }
  const time = (h: number) => `${String(h).padStart(2, '0')}:00:00`;
  return { min: time(min), max: time(max) };
}
