import type { AccessClaims } from '@healthbook/shared/contracts/auth';

/**
 * The session tokens kept in local storage: the access token only. The refresh token lives in
 * an HttpOnly cookie (hb_refresh) that script cannot read; the server reads it on refresh and
 * logout.
 */
export interface SessionTokens {
  access: string;
}

/** The local-storage key of the tokens. */
export const SESSION_KEY = 'session';
const KEY = SESSION_KEY;
type Listener = () => void;
/** Told when the session is ended for us (a refresh answered 401, or another tab signed out). */
const destroyListeners = new Set<Listener>();
/** Told on every change of the tokens (the session store re-reads them). */
const changeListeners = new Set<Listener>();

function changed(): void {
  for (const listener of changeListeners) listener();
}

/**
 * The claims of an access token, read without verifying it (the server verifies; the client
 * only routes on them): the payload is base64url-encoded JSON. Null for anything unreadable.
 */
export function readClaims(token: string | null | undefined): AccessClaims | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as Partial<AccessClaims> | null;
    if (!claims || (claims.access !== 'full' && claims.access !== 'limited') || typeof claims.org !== 'number') return null;
    return claims as AccessClaims;
  } catch {
    return null;
  }
}

export const session = {
  get(): SessionTokens | null {
    try {
      const raw = localStorage.getItem(KEY);
      const parsed = raw ? (JSON.parse(raw) as { access?: unknown; refresh?: unknown }) : null;
      if (!parsed || typeof parsed.access !== 'string' || !parsed.access) return null;
      // An earlier version kept the refresh token here too: it goes (the cookie holds it now).
      if ('refresh' in parsed) localStorage.setItem(KEY, JSON.stringify({ access: parsed.access }));
      return { access: parsed.access };
    } catch {
      return null;
    }
  },
  set(tokens: SessionTokens): void {
    localStorage.setItem(KEY, JSON.stringify({ access: tokens.access }));
    changed();
  },
  /** A renewed access token, kept only while the session is still here (no sign-out came in between). */
  setAccess(access: string): void {
    if (session.get()) session.set({ access });
  },
  /** The claims of the current access token, or null when signed out. */
  claims(): AccessClaims | null {
    return readClaims(session.get()?.access);
  },
  /** Removes the tokens quietly: for a sign-out the app itself asked for (it navigates on its own). */
  clear(): void {
    localStorage.removeItem(KEY);
    changed();
  },
  /** Ends the session locally and tells whoever listens (the app clears its caches and goes to sign-in). */
  destroy(): void {
    localStorage.removeItem(KEY);
    changed();
    for (const listener of [...destroyListeners]) listener();
  },
  onDestroy(listener: Listener): () => void {
    destroyListeners.add(listener);
    return () => destroyListeners.delete(listener);
  },
  onChange(listener: Listener): () => void {
    changeListeners.add(listener);
    return () => changeListeners.delete(listener);
  },
};
