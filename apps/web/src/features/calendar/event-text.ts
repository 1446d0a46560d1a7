import type { TFunction } from 'i18next';
import { parseRecurrence, WEEKDAYS, type EventType, type Weekday } from '@healthbook/shared/calendar';
import { formatters } from './calendar-time';

/** The catalog key of a type: the specification's keys (its "Excercise" too) onto the words shown ("Exercise"). */
const TYPE_KEYS: Record<EventType, string> = {
  Appointment: 'appointment',
  Medicine: 'medicine',
  Exam: 'exam',
  Reminder: 'reminder',
  Excercise: 'exercise',
  Operation: 'operation',
  Allergy: 'allergy',
  'Recurring Event': 'recurringEvent',
  'Developer Event': 'developerEvent',
};

export const typeLabel = (t: TFunction, type: EventType): string => t(`calendar:types.${TYPE_KEYS[type] ?? 'reminder'}`);

/** "15 minutes before", "1 day before", "When it starts". */
export function reminderLabel(t: TFunction, minutes: number | null): string {
  if (minutes === null) return t('calendar:form.reminders.none');
  if (minutes === 0) return t('calendar:form.reminders.atStart');
  if (minutes % 10080 === 0) return t('calendar:form.reminders.weeks', { count: minutes / 10080 });
  if (minutes % 1440 === 0) return t('calendar:form.reminders.days', { count: minutes / 1440 });
  if (minutes % 60 === 0) return t('calendar:form.reminders.hours', { count: minutes / 60 });
  return t('calendar:form.reminders.minutes', { count: minutes });
}

/** The names of the weekdays in the reader's language, Monday first. */
export function weekdayNames(language: string | undefined, width: 'short' | 'long'): Record<Weekday, string> {
  const format = new Intl.DateTimeFormat(formatters(language, 'UTC').locale, { weekday: width, timeZone: 'UTC' });
  // 2024-01-01 was a Monday.
  return Object.fromEntries(WEEKDAYS.map((d, i) => [d, format.format(Date.UTC(2024, 0, 1 + i))])) as Record<Weekday, string>;
}

/** A rule in words: "Every 2 weeks on Monday, Wednesday, 10 times". */
export function describeRule(t: TFunction, language: string | undefined, rule: string, tz: string): string {
  const parsed = parseRecurrence(rule);
  if (!parsed.ok) return rule;
  const r = parsed.value;
  let head = t(`calendar:rule.every.${r.freq}`, { count: r.interval });
  if (r.byDay.length) {
    const names = weekdayNames(language, 'long');
    head += ` ${t('calendar:rule.onDays', { days: r.byDay.map((d) => names[d]).join(', ') })}`;
  }
  const parts = [head];
  if (r.until) parts.push(t('calendar:rule.until', { date: formatters(language, tz).date(r.until) }));
  if (r.count !== null) parts.push(t('calendar:rule.times', { count: r.count }));
  return parts.join(', ');
}
