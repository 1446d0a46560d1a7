import { isTimeZone } from './calendar';
import type { Language } from './constants';

/**
 * Times as a reader reads them, in their own time zone and with the zone named (issue 27, §4):
 * every e-mail and PDF (the server) and the share recipient's page write a moment with
 * formatMoment and a day with formatDay, in the reader's zone: their account's (zoneOf), else
 * the patient's or the browser's, else UTC.
 */

const LOCALES: Record<Language, string> = { en: 'en-GB', el: 'el-GR' };

/** The zone kept in an account's settings (the browser's, saved on sign-in, or chosen in Preferences), else `fallback`. */
export function zoneOf(settings: unknown, fallback = 'UTC'): string {
  const zone = (settings as { timeZone?: unknown } | null | undefined)?.timeZone;
  return typeof zone === 'string' && isTimeZone(zone) ? zone : fallback;
}

/** The first of the zones given that is a real one ("UTC" if none is). */
export function firstZone(...zones: Array<string | null | undefined>): string {
  return zones.find((zone): zone is string => typeof zone === 'string' && isTimeZone(zone)) ?? 'UTC';
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let made = formatters.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, options);
    if (formatters.size < 500) formatters.set(key, made);
  }
  return made;
}

const partOf = (at: Date, locale: string, timeZone: string, timeZoneName: Intl.DateTimeFormatOptions['timeZoneName']) =>
  formatter(locale, { timeZone, timeZoneName })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value ?? timeZone;

/**
 * The zone's name in the reader's language at that moment: its generic name ("Eastern European
 * Time", "Ώρα Ανατολικής Ευρώπης"); a zone without one is named by its abbreviation or offset
 * ("UTC", "GMT-3").
 */
export function zoneName(at: Date, lang: Language, timeZone: string): string {
  const locale = LOCALES[lang];
  const generic = partOf(at, locale, timeZone, 'longGeneric');
  return generic.startsWith('GMT') ? partOf(at, locale, timeZone, 'short') : generic;
}

export interface MomentOptions {
  /** With the day of the week ("Friday, 4 December 2026 at 07:38"). */
  weekday?: boolean;
}

/** "4 December 2026 at 07:38 (Eastern European Time)", "4 Δεκεμβρίου 2026 στις 07:38 (Ώρα Ανατολικής Ευρώπης)": a 24-hour clock. */
export function formatMoment(at: Date | string, lang: Language, timeZone: string, options: MomentOptions = {}): string {
  const moment = new Date(at);
  const zone = firstZone(timeZone);
  const text = formatter(LOCALES[lang], {
    ...(options.weekday ? { weekday: 'long' } : {}),
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: zone,
  }).format(moment);
  return `${text} (${zoneName(moment, lang, zone)})`;
}

/** The day of a moment in a zone ("4 December 2026"; with `weekday`, "Friday, 4 December 2026"): a day needs no zone named. */
export function formatDay(at: Date | string, lang: Language, timeZone: string, options: MomentOptions = {}): string {
  return formatter(LOCALES[lang], { ...(options.weekday ? { weekday: 'long' } : {}), day: 'numeric', month: 'long', year: 'numeric', timeZone: firstZone(timeZone) }).format(new Date(at));
}
