import { CODE_ENTRY_LENGTH, PASSWORD_MIN_LENGTH, CLIENT_ID_MAX_LENGTH, CLIENT_ID_PATTERN, DEFAULT_LANGUAGE, ORGANIZATION_NOT_FOUND, SUPPORTED_LANGUAGES, type Language } from './constants';
import type { OrganizationDetail, OrganizationLookup } from './contracts/organizations';

/**
 * Rules used by both sides, as plain functions: the web app's forms call them directly (no zod
 * in the sign-in bundle) and the server's zod contracts wrap them. Messages are locale keys.
 */

/** Zero-width and invisible formatting characters that make a text look empty or different. */
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF\u00AD\u180E]/g;

/**
 * A text as stored: Unicode NFC, without zero-width characters, trimmed of white space.
 * "  \u200B " becomes "" (and is then refused where a value is required).
 */
export function cleanText(value: string): string {
  return value.normalize('NFC').replace(INVISIBLE, '').trim();
}

/** One line: no control characters (tabs, line breaks, NUL, ...). */
export function isSingleLine(value: string): boolean {
  return !/\p{Cc}/u.test(value);
}

/** Has at least one letter, in any script. */
export function hasLetter(value: string): boolean {
  return /\p{L}/u.test(value);
}

/** Lower-cases a client id from a path; answers null when it cannot be one. */
export function normalizeClientId(raw: string | undefined | null): string | null {
  if (!raw || raw.length > CLIENT_ID_MAX_LENGTH) return null;
  const lower = raw.toLowerCase();
  return CLIENT_ID_PATTERN.test(lower) ? lower : null;
}

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/**
 * Picks the language from an Accept-Language header (or any language tag list):
 * the first supported primary subtag by quality, else the default (en).
 */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const candidates = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { lang: tag.trim().toLowerCase().split('-')[0] ?? '', quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((c) => c.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return (candidates.find((c) => isSupportedLanguage(c.lang))?.lang as Language | undefined) ?? DEFAULT_LANGUAGE;
}

/** The "standard e-mail pattern" of the spec: something@domain.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export function isValidEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}

/** Validation of the sign-in form: answers the message key of the first rule broken, per field. */
export function validateEmailField(value: string): string | true {
  const v = value.trim();
  if (!v) return 'validation:emailRequired';
  return isValidEmail(v) ? true : 'validation:emailInvalid';
}
export function validatePasswordField(value: string): string | true {
  return value ? true : 'validation:passwordRequired';
}

export function isOrganizationFound(o: OrganizationLookup): o is OrganizationDetail {
  return o.org !== ORGANIZATION_NOT_FOUND;
}

/**
 * The spec's password rule: at least 8 characters, no whitespace, an upper-case letter, a
 * lower-case letter, a digit and one of # ? ! @ $ % ^ & * -.
 */
export function isStrongPassword(value: string): boolean {
  return (
    value.length >= PASSWORD_MIN_LENGTH &&
    !/\s/.test(value) &&
    /[A-Z]/.test(value) &&
    /[a-z]/.test(value) &&
    /[0-9]/.test(value) &&
    /[#?!@$%^&*-]/.test(value)
  );
}
export function validateNewPassword(value: string): string | true {
  if (!value) return 'validation:passwordRequired';
  return isStrongPassword(value) ? true : 'validation:passwordWeak';
}
export function validateConfirmPassword(value: string, password: string): string | true {
  if (!value) return 'validation:confirmPasswordRequired';
  return value === password ? true : 'validation:passwordsDoNotMatch';
}

/** Code retrieval names: letters a-z and A-Z only, no spaces. */
export function validateRetrievalName(value: string, which: 'first' | 'last'): string | true {
  if (!value.trim()) return which === 'first' ? 'validation:firstNameRequired' : 'validation:lastNameRequired';
  return /^[a-zA-Z]+$/.test(value) ? true : 'validation:nameFormat';
}

/**
 * Date of birth as typed, MM/DD/YYYY (month 01-12, day 01-31, year 19xx or 20xx); the server
 * also takes YYYY-MM-DD. Answers YYYY-MM-DD for a real calendar date, else null.
 */
export function parseDob(value: string): string | null {
  const v = value.trim();
  let m = /^(0[1-9]|1[0-2])\/(0[1-9]|[12][0-9]|3[01])\/((?:19|20)[0-9]{2})$/.exec(v);
  let y: string, mo: string, d: string;
  if (m) [, mo, d, y] = m as unknown as [string, string, string, string];
  else {
    m = /^((?:19|20)[0-9]{2})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/.exec(v);
    if (!m) return null;
    [, y, mo, d] = m as unknown as [string, string, string, string];
  }
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return null;
  return `${y}-${mo}-${d}`;
}
export function validateDob(value: string): string | true {
  if (!value.trim()) return 'validation:dobRequired';
  return parseDob(value) ? true : 'validation:dobFormat';
}
/** Today as YYYY-MM-DD in UTC: the day every side compares dates of birth with. */
export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A YYYY-MM-DD date after `today` (YYYY-MM-DD, or a Date read in UTC; default: now). The one
 * "not in the future" rule for dates of birth: invitations, the profile and the forms.
 */
export function isFutureDate(iso: string, today: string | Date = new Date()): boolean {
  return iso > (typeof today === 'string' ? today : todayIso(today));
}

/** A date of birth as typed: required, a real date (MM/DD/YYYY or YYYY-MM-DD), and not in the future. */
export function validateDobNotFuture(value: string, today?: string | Date): string | true {
  const rule = validateDob(value);
  if (rule !== true) return rule;
  return isFutureDate(parseDob(value)!, today) ? 'validation:dobFuture' : true;
}

/** YYYY-MM-DD to MM/DD/YYYY, the way the forms show it. */
export function formatDobForDisplay(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${m}/${d}/${y}`;
}

export function validateAccessCode(value: string): string | true {
  return value.trim() ? true : 'validation:accessCodeRequired';
}

/** A code typed in the six boxes: exactly six digits. */
export function isCompleteCode(value: string, length = CODE_ENTRY_LENGTH): boolean {
  return new RegExp(`^[0-9]{${length}}$`).test(value);
}
