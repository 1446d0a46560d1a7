import { ISO_WEEKDAYS } from '@healthbook/shared/appointments';
import type { ProviderSchedule, ProviderScheduleBody } from '@healthbook/shared/contracts/appointments';

/** The availability form as edited: weekly ranges (several a day), and exceptions by date. */
export interface WeeklyRange {
  weekday: number;
  /** HH:MM (24-hour) */
  start: string;
  end: string;
}

export interface ExceptionEntry {
  /** YYYY-MM-DD */
  date: string;
  /** Not available that day (start and end are then ignored). */
  dayOff: boolean;
  start: string;
  end: string;
}

export interface ScheduleForm {
  slot_minutes: number;
  timezone: string;
  weekly: WeeklyRange[];
  exceptions: ExceptionEntry[];
}

/** Why a field is refused: the key of a message under provider:availability.errors. */
export type ScheduleProblem = 'timeRequired' | 'endBeforeStart' | 'overlap' | 'shorterThanSlot' | 'dateRequired' | 'duplicateDate';

/** A refused field: its path in the form ("weekly.2.end", "exceptions.0.date") and why. */
export interface ScheduleError {
  path: string;
  problem: ScheduleProblem;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A range's own problem (missing time, end not after start, too short for one slot), on the field to fix. */
function rangeProblem(prefix: string, start: string, end: string, slotMinutes: number): ScheduleError | null {
  if (!TIME.test(start)) return { path: `${prefix}.start`, problem: 'timeRequired' };
  if (!TIME.test(end)) return { path: `${prefix}.end`, problem: 'timeRequired' };
  if (minutes(end) <= minutes(start)) return { path: `${prefix}.end`, problem: 'endBeforeStart' };
  if (minutes(end) - minutes(start) < slotMinutes) return { path: `${prefix}.end`, problem: 'shorterThanSlot' };
  return null;
}

/**
 * The rules of the availability editor, before anything is sent: every range has a start and
 * an end after it, at least one slot long; ranges of one weekday do not overlap (touching is
 * fine: 09:00–12:00 and 12:00–13:00); an exception has a date, at most one per date, and hours
 * by the same rules unless it is a day off. Each problem is reported once, on the field to fix
 * (an overlap on the range that starts later).
 */
export function checkSchedule(form: ScheduleForm): ScheduleError[] {
  const errors: ScheduleError[] = [];
  const valid: Array<{ index: number; weekday: number; from: number; to: number }> = [];
  form.weekly.forEach((range, index) => {
    const problem = rangeProblem(`weekly.${index}`, range.start, range.end, form.slot_minutes);
    if (problem) errors.push(problem);
    else valid.push({ index, weekday: range.weekday, from: minutes(range.start), to: minutes(range.end) });
  });
  for (const weekday of ISO_WEEKDAYS) {
    const day = valid.filter((r) => r.weekday === weekday).sort((a, b) => a.from - b.from || a.index - b.index);
    let reach = -1;
    for (const range of day) {
      if (range.from < reach) errors.push({ path: `weekly.${range.index}.start`, problem: 'overlap' });
      reach = Math.max(reach, range.to);
    }
  }
  const dates = new Set<string>();
  form.exceptions.forEach((entry, index) => {
    if (!DAY.test(entry.date)) errors.push({ path: `exceptions.${index}.date`, problem: 'dateRequired' });
    else if (dates.has(entry.date)) errors.push({ path: `exceptions.${index}.date`, problem: 'duplicateDate' });
    else dates.add(entry.date);
    if (!entry.dayOff) {
      const problem = rangeProblem(`exceptions.${index}`, entry.start, entry.end, form.slot_minutes);
      if (problem) errors.push(problem);
    }
  });
  return errors;
}

/** The form of a stored schedule; a provider who never published one (no hours, UTC) starts in the reader's zone. */
export function formOf(schedule: ProviderSchedule | undefined, userZone: string): ScheduleForm {
  return {
    slot_minutes: schedule?.slot_minutes ?? 30,
    timezone: schedule && (schedule.weekly.length > 0 || schedule.timezone !== 'UTC') ? schedule.timezone : userZone,
    weekly: [...(schedule?.weekly ?? [])].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start)),
    exceptions: (schedule?.exceptions ?? []).map((e) => ({ date: e.date, dayOff: e.start === null || e.end === null, start: e.start ?? '', end: e.end ?? '' })),
  };
}

/** What PUT /api/v1/provider/me/schedule/ takes: ranges in order, exceptions by date (a day off with no hours). */
export function payloadOf(form: ScheduleForm): ProviderScheduleBody {
  return {
    slot_minutes: form.slot_minutes,
    timezone: form.timezone,
    weekly: [...form.weekly].sort((a, b) => a.weekday - b.weekday || a.start.localeCompare(b.start)).map(({ weekday, start, end }) => ({ weekday, start, end })),
    exceptions: [...form.exceptions]
      .sort((a, b) => a.date.localeCompare(b.date))
      .map((e) => (e.dayOff ? { date: e.date, start: null, end: null } : { date: e.date, start: e.start, end: e.end })),
  };
}

/** A new range for a weekday: after its last one (an hour later, for an hour), else 09:00–17:00. */
export function nextRange(form: Pick<ScheduleForm, 'weekly'>, weekday: number): WeeklyRange {
  const last = form.weekly.filter((r) => r.weekday === weekday && TIME.test(r.end)).sort((a, b) => minutes(a.end) - minutes(b.end)).at(-1);
  if (!last) return { weekday, start: '09:00', end: '17:00' };
  const from = Math.min(minutes(last.end) + 60, 22 * 60);
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return { weekday, start: hhmm(from), end: hhmm(Math.min(from + 60, 23 * 60 + 59)) };
}
