/** The session tokens, kept in local storage as the spec's client does. */
export interface SessionTokens {
  access: string;
  refresh: string;
}

const KEY = 'session';
type Listener = () => void;
const listeners = new Set<Listener>();

export const session = {
  get(): SessionTokens | null {
    try {
      const raw = localStorage.getItem(KEY);
      const parsed = raw ? (JSON.parse(raw) as Partial<SessionTokens>) : null;
      return parsed?.access && parsed.refresh ? { access: parsed.access, refresh: parsed.refresh } : null;
    } catch {
      return null;
    }
  },
  set(tokens: SessionTokens): void {
    localStorage.setItem(KEY, JSON.stringify(tokens));
  },
  setAccess(access: string, refresh?: string): void {
    const current = session.get();
    if (current) session.set({ access, refresh: refresh ?? current.refresh });
  },
  /** Ends the session locally and tells whoever listens (the app clears its caches and goes to sign-in). */
  destroy(): void {
    localStorage.removeItem(KEY);
    for (const listener of listeners) listener();
  },
  onDestroy(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
