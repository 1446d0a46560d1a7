/**
 * The token of the care-network invitation this tab is answering. It arrives in the e-mail
 * link's fragment (#token=…: never sent to a server), is kept for the tab (sessionStorage) so
 * that it survives signing in or signing up on the way, and is taken out of the address bar.
 */
const KEY = 'care-invitation';

interface Stored {
  token: string;
  /** The tab was brought back to the invitation after a sign-in once already (pending-invitation-return.tsx). */
  returned: boolean;
}

function read(): Stored | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<Stored> | null;
    return parsed && typeof parsed.token === 'string' && parsed.token ? { token: parsed.token, returned: parsed.returned === true } : null;
  } catch {
    return null;
  }
}

function write(value: Stored): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // storage disabled: the invitation lasts as long as the page
  }
}

export const pendingInvitation = {
  /** Takes a token from the address's fragment (kept, then removed from the address bar); answers the token the tab holds. */
  capture(): string | null {
    const hash = typeof window !== 'undefined' ? window.location.hash : '';
    const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')?.trim();
    if (token) {
      write({ token, returned: false });
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
    }
    return read()?.token ?? null;
  },
  token: (): string | null => read()?.token ?? null,
  /** Whether a sign-in should bring the tab back to the invitation (once). */
  shouldReturn: (): boolean => {
    const stored = read();
    return stored !== null && !stored.returned;
  },
  markReturned(): void {
    const stored = read();
    if (stored) write({ ...stored, returned: true });
  },
  /** Keeps a token across a sign-out (which empties the tab's storage). */
  restore(token: string): void {
    write({ token, returned: false });
  },
  clear(): void {
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      // nothing kept
    }
  },
};
