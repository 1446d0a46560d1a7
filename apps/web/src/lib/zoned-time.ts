import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * Instants shown in a time zone (the reader's, unless a provider chose another): calendar days
 * as YYYY-MM-DD computed with dayjs's utc/timezone plugins, texts in the reader's language
 * through Intl.
 */

/** The browser's IANA time zone (what the API's tz= parameters carry), UTC if it has none. */
export const userTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The calendar day (YYYY-MM-DD) an instant falls on in a zone. */
export const dayOf = (instant: string | Date, tz: string): string => dayjs(instant).tz(tz).format('YYYY-MM-DD');

/** Today (YYYY-MM-DD) in a zone. */
export const todayIn = (tz: string, now: Date = new Date()): string => dayOf(now, tz);

/** A calendar day moved by whole days. */
export const addDays = (day: string, days: number): string => dayjs.utc(day).add(days, 'day').format('YYYY-MM-DD');

/** The first and last day of the month a day is in. */
export const monthOf = (day: string): { start: string; end: string } => {
  const d = dayjs.utc(day);
  return { start: d.startOf('month').format('YYYY-MM-DD'), end: d.endOf('month').format('YYYY-MM-DD') };
};

/** The IANA zones the runtime knows, for a zone picker (UTC included). */
export function timeZones(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return all.includes('UTC') ? all : ['UTC', ...all];
}

export interface ZonedFormat {
  /** A calendar day: "Tuesday, 24 November 2026". */
  day: (day: string) => string;
  /** A short calendar day: "Tue, 24 Nov". */
  shortDay: (day: string) => string;
  /** The time of an instant in the zone: "9:30 AM". */
  time: (instant: string) => string;
  /** Day and time of an instant in the zone. */
  dateTime: (instant: string) => string;
}

/** Texts of days and instants in a language and a zone. */
export function zonedFormat(locale: string, tz: string): ZonedFormat {
  const day = new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const shortDay = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
  const time = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: tz });
  const dateTime = new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: tz });
  const utcDay = (d: string) => new Date(`${d}T00:00:00Z`);
  return {
    day: (d) => day.format(utcDay(d)),
    shortDay: (d) => shortDay.format(utcDay(d)),
    time: (instant) => time.format(new Date(instant)),
    dateTime: (instant) => dateTime.format(new Date(instant)),
  };
}

export { dayjs };
