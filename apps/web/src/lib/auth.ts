import { useSyncExternalStore } from 'react';
import type { AccessClaims, AccessLevel, LoginAnswer, LoginBody, TokenPair } from '@healthbook/shared/contracts/auth';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { api, ApiError } from './api-client';
import { paths } from './paths';
import { queryClient } from './query-client';
import { readClaims, session, SESSION_KEY, type SessionTokens } from './session';

/**
 * The session store: the tokens (local storage 'session'), the claims read from the access
 * token, and the user record kept locally as a copy (local storage 'user'). Components read it
 * with useSession() / useCurrentUser(); it follows changes made here, by the request layer
 * (token renewal) and by other tabs. Kept small: the sign-in page loads it.
 */

const USER_KEY = 'user';
/** Device preferences that outlive a session (the language choice of the header switch). */
const KEPT_ON_SIGN_OUT = ['language'];
const LOGOUT_WAIT_MS = 3000;

export interface SessionState {
  tokens: SessionTokens | null;
  claims: AccessClaims | null;
  user: UserDto | null;
}

const SIGNED_OUT: SessionState = { tokens: null, claims: null, user: null };
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
  let user: UserDto | null;
  try {
    user = tokens && rawUser ? (JSON.parse(rawUser) as UserDto) : null;
  } catch {
    user = null;
  }
  const state: SessionState = tokens ? { tokens, claims: readClaims(tokens.access), user } : SIGNED_OUT;
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

/** Stores what sign-in (or verification) answered: the token pair and, when given, the user. */
export function signIn(answer: TokenPair & { user?: UserDto | null }): AccessClaims | null {
  if (answer.user) localStorage.setItem(USER_KEY, JSON.stringify(answer.user));
  session.set({ access: answer.access, refresh: answer.refresh });
  return readClaims(answer.access);
}

/** POST /api/v1/login/ (any earlier session is dropped first) and store the answer. */
export async function logIn(body: LoginBody): Promise<AccessClaims | null> {
  if (session.get()) clearLocalData();
  const answer = await api.post<LoginAnswer>('/api/v1/login/', body);
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

/** Where a fresh sign-in goes: the second step when the token is limited, else the page asked for or the dashboard. */
export function afterSignInPath(clientId: string, claims: AccessClaims | null, redirectFrom?: string | null): string {
  const back = safeRedirect(clientId, redirectFrom);
  if (!claims) return paths.login(clientId);
  if (claims.access === 'limited') return paths.verify(clientId, back);
  return back ?? paths.dashboard(clientId);
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
  queryClient.clear();
  session.clear();
  notify();
}

/** POST /api/v1/logout/ with the refresh token (failure ignored, at most 3 s), then clears everything. Answers the login path. */
export async function signOut(clientId: string): Promise<string> {
  const tokens = session.get();
  if (tokens) {
    const posted = api.post('/api/v1/logout/', { refresh: tokens.refresh }).catch(() => undefined);
    await Promise.race([posted, new Promise((resolve) => setTimeout(resolve, LOGOUT_WAIT_MS))]);
  }
  clearLocalData();
  return paths.login(clientId);
}

/** The server's words for a failed call: its `detail`, or its field messages; null when it said nothing. */
export function apiErrorText(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const data = error.data;
  if (typeof data === 'string') return data.trim() && !data.trim().startsWith('<') ? data : null;
  if (!data || typeof data !== 'object') return null;
  const detail = (data as { detail?: unknown }).detail;
  if (typeof detail === 'string') return detail;
  const messages = Object.values(data as Record<string, unknown>)
    .flat()
    .filter((m): m is string => typeof m === 'string');
  return messages.length ? messages.join(' ') : null;
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
