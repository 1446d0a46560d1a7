import { CLIENT_ID_MAX_LENGTH } from '../constants';
import { SHARE_ROUTES } from '../sharing';

/**
 * The client id of a new organisation (or a changed one): the first segment of every address of
 * its pages (`/{clientId}/login`). Lower-case letters, digits and `-`, starting with a letter or a
 * digit; never a word the router or the server uses itself at the top of a path.
 */
export const CLIENT_ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const CLIENT_ID_MIN_LENGTH = 2;

/** Words the router (apps/web/src/app/router.tsx) or the server answers at the top of a path. */
export const RESERVED_CLIENT_IDS: readonly string[] = [
  '404',
  'about',
  'access-code',
  'adduser',
  'admin',
  'api',
  'assets',
  'caring-person-info',
  'code-retrieval',
  'dev',
  'docs',
  'email',
  'favicon',
  'favicon.ico',
  'forgotpassword',
  'health',
  'login',
  'logout',
  'metrics',
  'password',
  'privacy',
  'register',
  'resend-promo-code',
  'robots.txt',
  'safehavenlogout',
  'signup',
  'static',
  'terms',
  'verify',
  ...Object.values(SHARE_ROUTES).map((route) => route.split('/')[0]!.toLowerCase()),
];
const RESERVED = new Set(RESERVED_CLIENT_IDS);

/**
 * What is wrong with a client id, as a `validation` catalog key, or null when it may be used
 * (uniqueness is the database's to say).
 */
export function clientIdProblem(id: string): string | null {
  if (id.length < CLIENT_ID_MIN_LENGTH || id.length > CLIENT_ID_MAX_LENGTH) return 'validation:clientIdLength';
  if (!CLIENT_ID_PATTERN.test(id)) return 'validation:clientIdFormat';
  if (RESERVED.has(id)) return 'validation:clientIdReserved';
  return null;
}
