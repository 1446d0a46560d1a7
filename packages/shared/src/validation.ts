import { CLIENT_ID_MAX_LENGTH, CLIENT_ID_PATTERN, DEFAULT_LANGUAGE, ORGANIZATION_NOT_FOUND, SUPPORTED_LANGUAGES, type Language } from './constants';
import type { OrganizationDetail, OrganizationLookup } from './contracts/organizations';

/**
 * Rules used by both sides, as plain functions: the web app's forms call them directly (no zod
 * in the sign-in bundle) and the server's zod contracts wrap them. Messages are locale keys.
 */

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
