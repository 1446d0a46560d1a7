import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeToken, fakeUser, json } from '../components/testing/fake-session';
import { ApiError } from './api-client';
import { afterSignInPath, apiErrorText, getSessionState, logIn, safeRedirect, setUser, signIn, signOut, subscribeSession } from './auth';
import { queryClient } from './query-client';
import { readClaims, session } from './session';

function stubFetch(handler: (url: string, init: RequestInit) => Response) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, init });
      return handler(url, init);
    }),
  );
  return calls;
}

describe('session store', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('reads the claims of an access token without verifying it (base64url payload)', () => {
    const token = fakeToken({ access: 'limited', org: 3, sid: 'σ-ü' });
    expect(readClaims(token)).toMatchObject({ access: 'limited', org: 3, sid: 'σ-ü', user_id: 7 });
    expect(readClaims('not-a-token')).toBeNull();
    expect(readClaims('a.bm9wZQ.c')).toBeNull();
    expect(readClaims(null)).toBeNull();
  });

  it('signIn stores the tokens and the user copy; the store answers the same object until something changes', () => {
    const listener = vi.fn();
    const off = subscribeSession(listener);
    const access = fakeToken();
    signIn({ access, refresh: 'R', user: fakeUser() });
    const state = getSessionState();
    expect(state.tokens).toEqual({ access, refresh: 'R' });
    expect(state.claims?.access).toBe('full');
    expect(state.user?.email).toBe('maria@example.com');
    expect(JSON.parse(localStorage.getItem('user')!)).toMatchObject({ user_id: 7 });
    expect(getSessionState()).toBe(state);
    expect(listener).toHaveBeenCalled();

    setUser(fakeUser({ first_name: 'Eleni' }));
    expect(getSessionState()).not.toBe(state);
    expect(getSessionState().user?.first_name).toBe('Eleni');
    off();
  });

  it('a user copy without tokens counts as signed out', () => {
    localStorage.setItem('user', JSON.stringify(fakeUser()));
    expect(getSessionState()).toEqual({ tokens: null, claims: null, user: null });
  });

  it('logIn posts email, password and org, drops an old session first, and answers the claims', async () => {
    session.set({ access: 'stale', refresh: 'stale' });
    const access = fakeToken({ access: 'limited' });
    const calls = stubFetch(() => json(200, { access, refresh: 'R', user: fakeUser() }));
    const claims = await logIn({ email: 'maria@example.com', password: 'pw', org: 1 });
    expect(claims?.access).toBe('limited');
    expect(calls[0]!.url).toBe('/api/v1/login/');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ email: 'maria@example.com', password: 'pw', org: 1 });
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(session.get()).toEqual({ access, refresh: 'R' });
  });

  it('a wrong password is rejected once, not retried', async () => {
    const calls = stubFetch(() => json(401, { detail: 'Incorrect authentication credentials.' }));
    await expect(logIn({ email: 'a@b.co', password: 'x', org: 1 })).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(session.get()).toBeNull();
  });

  it('signOut posts the refresh token, then clears local and session storage (keeping the language) and the query cache', async () => {
    signIn({ access: fakeToken(), refresh: 'R9', user: fakeUser() });
    localStorage.setItem('language', 'el');
    localStorage.setItem('navDrawer', 'true');
    sessionStorage.setItem('chatInProgress', 'true');
    queryClient.setQueryData(['wizard', 'en'], { status: 'pending', steps: [] });
    const calls = stubFetch(() => new Response(null, { status: 204 }));

    await expect(signOut('northwind')).resolves.toBe('/northwind/login');
    expect(calls[0]!.url).toBe('/api/v1/logout/');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ refresh: 'R9' });
    expect(localStorage.getItem('session')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('navDrawer')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('language')).toBe('el');
    expect(queryClient.getQueryData(['wizard', 'en'])).toBeUndefined();
    expect(getSessionState().tokens).toBeNull();
  });

  it('signOut ends the session here even when the server does not answer', async () => {
    signIn({ access: fakeToken(), refresh: 'R', user: fakeUser() });
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await signOut('healthbook');
    expect(getSessionState().user).toBeNull();
    expect(session.get()).toBeNull();
  });

  it('when the request layer destroys the session (refresh answered 401), the user copy and caches go too', () => {
    signIn({ access: fakeToken(), refresh: 'R', user: fakeUser() });
    sessionStorage.setItem('chatInProgress', 'true');
    session.destroy();
    expect(localStorage.getItem('user')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(getSessionState().user).toBeNull();
  });

  it('another tab signing out ends the session in this one', () => {
    signIn({ access: fakeToken(), refresh: 'R', user: fakeUser() });
    getSessionState();
    const destroyed = vi.fn();
    const off = session.onDestroy(destroyed);
    localStorage.removeItem('session'); // what the other tab did
    window.dispatchEvent(new StorageEvent('storage', { key: 'session', newValue: null }));
    expect(destroyed).toHaveBeenCalledOnce();
    expect(localStorage.getItem('user')).toBeNull();
    off();
  });
});

describe('where sign-in leads', () => {
  const full = readClaims(fakeToken({ access: 'full' }));
  const limited = readClaims(fakeToken({ access: 'limited' }));

  it('limited access goes to verification (carrying redirectFrom), full access to the dashboard', () => {
    expect(afterSignInPath('healthbook', limited)).toBe('/healthbook/verify');
    expect(afterSignInPath('healthbook', limited, '/healthbook/settings/profile?tabId=3')).toBe(
      '/healthbook/verify?redirectFrom=%2Fhealthbook%2Fsettings%2Fprofile%3FtabId%3D3',
    );
    expect(afterSignInPath('healthbook', full)).toBe('/healthbook/dashboard');
    expect(afterSignInPath('healthbook', null)).toBe('/healthbook/login');
  });

  it('redirectFrom is followed only within the same organisation', () => {
    expect(afterSignInPath('healthbook', full, '/healthbook/settings/profile?tabId=3')).toBe('/healthbook/settings/profile?tabId=3');
    expect(afterSignInPath('healthbook', full, '/northwind/dashboard')).toBe('/healthbook/dashboard');
    expect(safeRedirect('healthbook', '//evil.example/healthbook/')).toBeNull();
    expect(safeRedirect('healthbook', 'https://evil.example/healthbook/x')).toBeNull();
    expect(safeRedirect('healthbook', '/healthbook/login')).toBeNull();
    expect(safeRedirect('healthbook', '/healthbookish/dashboard')).toBeNull();
  });
});

describe('server error text', () => {
  it('is the detail, or the field messages, or nothing', () => {
    expect(apiErrorText(new ApiError(403, { detail: 'Please confirm your e-mail.' }))).toBe('Please confirm your e-mail.');
    expect(apiErrorText(new ApiError(400, { code: ['The code is invalid or has expired.'] }))).toBe('The code is invalid or has expired.');
    expect(apiErrorText(new ApiError(502, '<html>Bad gateway</html>'))).toBeNull();
    expect(apiErrorText(new TypeError('Failed to fetch'))).toBeNull();
  });
});
