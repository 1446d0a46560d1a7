import { useState } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import localizedFormat from 'dayjs/plugin/localizedFormat';
import relativeTime from 'dayjs/plugin/relativeTime';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import 'dayjs/locale/el';

dayjs.extend(utc);
dayjs.extend(timezone);
dayjs.extend(relativeTime);
dayjs.extend(localizedFormat);

/**
 * Times of the calendar in the user's time zone, the browser's (sent to the API as `tz`), with
 * dayjs and its utc/timezone plugins. Days are calendar days written YYYY-MM-DD.
 */
export const userTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export { dayjs, type Dayjs };

/** An instant as a wall clock in a zone. */
export const inZone = (instant: string | Date, tz: string): Dayjs => dayjs(instant).tz(tz);

/** The calendar day of an instant in a zone. */
export const dayOf = (instant: string | Date, tz: string): string => inZone(instant, tz).format('YYYY-MM-DD');

/** Today in a zone. */
export const todayIn = (tz: string, now: Date = new Date()): string => dayOf(now, tz);

/** A calendar day moved by whole days (no zone involved). */
export const addDays = (day: string, days: number): string => dayjs.utc(day).add(days, 'day').format('YYYY-MM-DD');

/** "YYYY-MM-DD" of a real day. */
export const isDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value) && dayjs.utc(value).format('YYYY-MM-DD') === value;

/** A wall clock (day and HH:mm) of a zone, as an ISO instant with its offset ("2026-11-24T09:30:00+02:00"). */
export const wallToInstant = (day: string, time: string, tz: string): string => dayjs.tz(`${day}T${time}`, tz).format();

/** The locale tag of the app's language for Intl and dayjs. */
export const localeOf = (language: string | undefined): 'el' | 'en' => (language === 'el' ? 'el' : 'en');

/** Formatters of the reader's language, in a zone. */
export function formatters(language: string | undefined, tz: string) {
  const locale = localeOf(language);
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: tz });
  const date = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: tz });
  const longDate = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: tz });
  const dateTime = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: tz });
  // A calendar day is written as that day, whatever the zone.
  const day = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const longDay = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const utcDay = (d: string) => new Date(`${d}T00:00:00Z`);
  return {
    locale,
    time: (instant: string | Date) => time.format(new Date(instant)),
    date: (instant: string | Date) => date.format(new Date(instant)),
    longDate: (instant: string | Date) => longDate.format(new Date(instant)),
    dateTime: (instant: string | Date) => dateTime.format(new Date(instant)),
    day: (d: string) => day.format(utcDay(d)),
    longDay: (d: string) => longDay.format(utcDay(d)),
  };
}

/** "in 2 hours", "3 days ago" ("σε 2 ώρες") in the reader's language. */
export const relativeTo = (instant: string | Date, now: Date, language: string | undefined): string =>
  dayjs(instant).locale(localeOf(language)).from(dayjs(now));

/** The user's zone, read once per component. */
export const useTimeZone = (): string => useState(userTimeZone)[0];
