import { useSyncExternalStore } from 'react';
import type { AccessClaims, AccessLevel, LoginBody } from '@healthbook/shared/contracts/auth';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { api } from './api-client';
import { paths } from './paths';
import { consolePath } from './roles';
import { readClaims, session, SESSION_KEY, type SessionTokens } from './session';

/**
 * The session store: the access token (local storage 'session'; the refresh token is an HttpOnly
 * cookie), the claims read from it, and the user record kept locally as a copy (local storage
 * 'user'). Components read it with useSession() / useCurrentUser(); it follows changes made
 * here, by the request layer (token renewal) and by other tabs. Kept small: the sign-in page
 * loads it when the form is sent.
 */

const USER_KEY = 'user';
/** Device preferences that outlive a session (the language choice of the header switch). */
const KEPT_ON_SIGN_OUT = ['language', 'colorMode'];
const LOGOUT_WAIT_MS = 3000;

/**
 * What a limited session (password right, second factor pending) knows of its user: the
 * sign-in answer for an account with a second factor carries only this, and nothing more is
 * shown or kept until the second step is passed.
 */
export interface LimitedUser {
  user_id: number;
  first_name: string;
  has_mfa_enabled: boolean;
  mfa_devices: Array<Pick<UserDto['mfa_devices'][number], 'device_type'>>;
  settings: UserDto['settings'];
  user_org_details: UserDto['user_org_details'];
}

/** The answers of login and verify: the access token and the user (a `refresh` in them is not kept). */
export interface SignInAnswer {
  access: string;
  user?: UserDto | LimitedUser | null;
}

export interface SessionState {
  tokens: SessionTokens | null;
  claims: AccessClaims | null;
  /** The user record: with full access only. */
  user: UserDto | null;
  /** With limited access (second step pending): the little the sign-in answer tells. */
  limitedUser: LimitedUser | null;
}

const SIGNED_OUT: SessionState = { tokens: null, claims: null, user: null, limitedUser: null };

/** Only the fields a limited session may hold, whatever was given (an older copy may carry more). */
export function toLimitedUser(user: LimitedUser): LimitedUser {
  return {
    user_id: user.user_id,
    first_name: user.first_name,
    has_mfa_enabled: user.has_mfa_enabled,
    mfa_devices: (user.mfa_devices ?? []).map((device) => ({ device_type: device.device_type })),
    settings: user.settings ?? {},
    user_org_details: user.user_org_details ?? [],
  };
}
const listeners = new Set<() => void>();
let cached: { rawSession: string | null; rawUser: string | null; state: SessionState } | null = null;

function notify(): void {
  for (const listener of [...listeners]) listener();
}

function readStored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The current state; the same object while nothing changed (useSyncExternalStore needs that). */
export function getSessionState(): SessionState {
  const rawSession = readStored(SESSION_KEY);
  const rawUser = readStored(USER_KEY);
  if (cached && cached.rawSession === rawSession && cached.rawUser === rawUser) return cached.state;
  const tokens = session.get();
  const claims = tokens ? readClaims(tokens.access) : null;
  let stored: unknown;
  try {
    stored = tokens && rawUser ? JSON.parse(rawUser) : null;
  } catch {
    stored = null;
  }
  const state: SessionState = !tokens
    ? SIGNED_OUT
    : claims?.access === 'full'
      ? { tokens, claims, user: stored as UserDto | null, limitedUser: null }
      : { tokens, claims, user: null, limitedUser: stored ? toLimitedUser(stored as LimitedUser) : null };
  cached = { rawSession, rawUser, state };
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const useSession = (): SessionState => useSyncExternalStore(subscribeSession, getSessionState, () => SIGNED_OUT);
export const useCurrentUser = (): UserDto | null => useSession().user;

/** 'full', 'limited' or null (signed out). */
export function accessLevel(state: SessionState = getSessionState()): AccessLevel | null {
  return state.claims?.access ?? null;
}

/** Keeps the local copy of the user record (after GET/PUT me, verify, avatar...). */
export function setUser(user: UserDto | null): void {
  if (user) localStorage.setItem(USER_KEY, JSON.stringify(user));
  else localStorage.removeItem(USER_KEY);
  notify();
}

/**
 * Stores what sign-in (or verification) answered: the access token and, when given, the user
 * (for a limited session, only the fields of LimitedUser). The refresh token is the server's
 * HttpOnly cookie: a `refresh` in the answer is for other API clients and is not kept.
 */
export function signIn(answer: SignInAnswer): AccessClaims | null {
  const claims = readClaims(answer.access);
  if (answer.user) {
    const user = claims?.access === 'full' ? answer.user : toLimitedUser(answer.user as LimitedUser);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
  }
  session.set({ access: answer.access });
  return claims;
}

/** POST /api/v1/login/ (any earlier session is dropped first) and store the answer. */
export async function logIn(body: LoginBody): Promise<AccessClaims | null> {
  if (session.get()) clearLocalData();
  const answer = await api.post<SignInAnswer>('/api/v1/login/', body);
  return signIn(answer);
}

/** GET /api/v1/me/: re-validates the session and refreshes the local copy of the user. */
export async function refreshUser(): Promise<UserDto> {
  const user = await api.get<UserDto>('/api/v1/me/');
  if (session.get()) setUser(user);
  return user;
}

/** A same-organisation path to return to after sign-in, or null for anything else. */
export function safeRedirect(clientId: string, redirectFrom: string | null | undefined): string | null {
  if (!redirectFrom || !redirectFrom.startsWith(`/${clientId}/`) || redirectFrom.startsWith('//') || redirectFrom.includes('\\')) return null;
  const target = redirectFrom.split(/[?#]/)[0]!;
  if (target === paths.login(clientId) || target === paths.verify(clientId) || target === paths.logout(clientId)) return null;
  return redirectFrom;
}

/**
 * Where a fresh sign-in goes: the second step when the token is limited, else the page asked
 * for, else a staff member's console (lib/roles.ts), else the dashboard.
 */
export function afterSignInPath(clientId: string, claims: AccessClaims | null, redirectFrom?: string | null): string {
  const back = safeRedirect(clientId, redirectFrom);
  if (!claims) return paths.login(clientId);
  if (claims.access === 'limited') return paths.verify(clientId, back);
  const user = getSessionState().user;
  return back ?? (user ? consolePath(user, clientId) : null) ?? paths.dashboard(clientId);
}

const localCaches = new Set<() => void>();
/** A cache of this session's data (the query client registers itself), emptied by clearLocalData. */
export function onClearLocalData(clear: () => void): void {
  localCaches.add(clear);
}

/**
 * Ends the session on this device: clears local and session storage (keeping the language
 * choice), the query cache and the tokens. Tells the store, not the destroy listeners.
 */
export function clearLocalData(): void {
  const kept = KEPT_ON_SIGN_OUT.map((key) => [key, readStored(key)] as const);
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch {
    // storage unavailable: nothing to clear
  }
  for (const [key, value] of kept) if (value !== null) localStorage.setItem(key, value);
  for (const clear of localCaches) clear();
  session.clear();
  notify();
}

let leaving: Promise<void> | null = null;

/**
 * POST /api/v1/logout/ with `{}` (the server reads the refresh cookie, revokes the session and
 * clears the cookie; failure ignored, at most 3 s), then clears everything. Answers the login path.
 */
export async function signOut(clientId: string): Promise<string> {
  // Asked twice at once (the organisation's loader and a page's guard both find a foreign session): one sign-out serves both.
  leaving ??= (async () => {
    if (session.get()) {
      const posted = api.post('/api/v1/logout/', {}).catch(() => undefined);
      await Promise.race([posted, new Promise((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS))]);
    }
    clearLocalData();
  })().finally(() => {
    leaving = null;
  });
  await leaving;
  return paths.login(clientId);
}

// The request layer, or another tab, ended the session: forget everything it held.
session.onChange(notify);
session.onDestroy(clearLocalData);
if (typeof window !== 'undefined') {
  let signedIn = session.get() !== null;
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== SESSION_KEY && event.key !== USER_KEY) return;
    const now = session.get() !== null;
    if (signedIn && !now) session.destroy();
    else notify();
  });
  subscribeSession(() => {
    signedIn = session.get() !== null;
  });
}
