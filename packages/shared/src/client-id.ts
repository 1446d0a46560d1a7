/**
 * The rule for a new organisation's client id (the first segment of every address of the
 * organisation: `/{clientId}/login`). One rule for every way an organisation is made: the
 * operator's `create-organisation` command and the super admins' organisations page.
 *
 * Organisations made before this rule may keep ids that the looser path pattern
 * (CLIENT_ID_PATTERN) accepts; a new one must follow this one.
 */

/**
 * First path segments that something other than an organisation answers, so an organisation
 * may never be named so:
 * - the web router's top-level paths (apps/web/src/app/router.tsx: `/login`, `/logout`,
 *   `/register`, `/code-retrieval`, `/email/confirm/…`, `/password/reset/…`), and `404`, the
 *   not-found page;
 * - the server's own prefixes: `api` (every API route), `dev` (the mailbox outside
 *   production), `assets` (the built web app's files);
 * - words kept for pages to come or that would mislead (`admin`, `static`, `www`, …).
 * A test on each side checks that every top-level segment the router or the server answers
 * is in this list.
 */
export const RESERVED_CLIENT_IDS = [
  '404',
  'about',
  'admin',
  'api',
  'assets',
  'code-retrieval',
  'dev',
  'docs',
  'email',
  'favicon',
  'health',
  'help',
  'index',
  'login',
  'logout',
  'password',
  'privacy',
  'public',
  'register',
  'robots',
  'signup',
  'static',
  'terms',
  'www',
] as const;

/** Lower-case letters, digits and `-`; starts with a letter (an all-digit id would read as an organisation's number), ends with a letter or digit. */
export const NEW_CLIENT_ID_PATTERN = /^[a-z](?:[a-z0-9-]*[a-z0-9])?$/;
export const NEW_CLIENT_ID_MAX_LENGTH = 32;

export function isReservedClientId(value: string): boolean {
  return (RESERVED_CLIENT_IDS as readonly string[]).includes(value.toLowerCase());
}

/**
 * A new organisation's client id as typed (not trimmed or lower-cased for the caller: what is
 * stored is what was checked). Answers true or the validation message key of the first rule
 * broken; uniqueness is the database's to decide (`validation:clientIdTaken`).
 */
export function validateNewClientId(value: string): string | true {
  if (!value) return 'validation:clientIdRequired';
  if (value.length > NEW_CLIENT_ID_MAX_LENGTH) return 'validation:clientIdLength';
  if (!NEW_CLIENT_ID_PATTERN.test(value)) return 'validation:clientIdFormat';
  if (isReservedClientId(value)) return 'validation:clientIdReserved';
  return true;
}
