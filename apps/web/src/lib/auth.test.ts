import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeToken, fakeUser, json } from '../components/testing/fake-session';
import { afterSignInPath, getSessionState, logIn, safeRedirect, setUser, signIn, signOut, subscribeSession } from './auth';
import { queryClient } from './query-client';
import { queryKeys } from './query-keys';
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

  it('signIn stores the access token and the user copy; the store answers the same object until something changes', () => {
    const listener = vi.fn();
    const off = subscribeSession(listener);
    const access = fakeToken();
    signIn({ access, user: fakeUser() });
    const state = getSessionState();
    expect(state.tokens).toEqual({ access });
    expect(JSON.parse(localStorage.getItem('session')!)).toEqual({ access });
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
    expect(getSessionState()).toEqual({ tokens: null, claims: null, user: null, limitedUser: null });
  });

  it('a refresh token kept by an earlier version is dropped: the cookie holds it now', () => {
    const access = fakeToken();
    localStorage.setItem('session', JSON.stringify({ access, refresh: 'R-old' }));
    expect(session.get()).toEqual({ access });
    expect(JSON.parse(localStorage.getItem('session')!)).toEqual({ access });
    expect(getSessionState().claims?.access).toBe('full');
  });

  it('a limited session keeps only what the second step needs of the user, and shows no full user', () => {
    const answer = { access: fakeToken({ access: 'limited' }), user: fakeUser({ has_mfa_enabled: true, mfa_devices: [{ uuid: 'u1', device_type: 'google' }] }) };
    signIn(answer);
    const limited = { user_id: 7, first_name: 'Μαρία', has_mfa_enabled: true, mfa_devices: [{ device_type: 'google' }], settings: {}, user_org_details: answer.user.user_org_details };
    expect(JSON.parse(localStorage.getItem('user')!)).toEqual(limited);
    expect(getSessionState().user).toBeNull();
    expect(getSessionState().limitedUser).toEqual(limited);

    // The second step passed: the whole record, with full access.
    signIn({ access: fakeToken({ access: 'full' }), user: fakeUser() });
    expect(getSessionState().limitedUser).toBeNull();
    expect(getSessionState().user?.email).toBe('maria@example.com');
  });

  it('logIn posts email, password and org, drops an old session first, and answers the claims', async () => {
    session.set({ access: 'stale' });
    const access = fakeToken({ access: 'limited' });
    const calls = stubFetch(() => json(200, { access, refresh: 'R', user: fakeUser() }));
    const claims = await logIn({ email: 'maria@example.com', password: 'pw', org: 1 });
    expect(claims?.access).toBe('limited');
    expect(calls[0]!.url).toBe('/api/v1/login/');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ email: 'maria@example.com', password: 'pw', org: 1 });
    expect((calls[0]!.init.headers as Record<string, string>).Authorization).toBeUndefined();
    expect(session.get()).toEqual({ access });
    expect(localStorage.getItem('session')).not.toContain('"refresh"');
  });

  it('a wrong password is rejected once, not retried', async () => {
    const calls = stubFetch(() => json(401, { detail: 'Incorrect authentication credentials.' }));
    await expect(logIn({ email: 'a@b.co', password: 'x', org: 1 })).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(session.get()).toBeNull();
  });

  it('signOut posts {} (the server reads the refresh cookie), then clears local and session storage (keeping the language) and the query cache', async () => {
    signIn({ access: fakeToken(), user: fakeUser() });
    localStorage.setItem('language', 'el');
    localStorage.setItem('navDrawer', 'true');
    sessionStorage.setItem('chatInProgress', 'true');
    queryClient.setQueryData(queryKeys.wizard.forLanguage('en'), { status: 'pending', steps: [] });
    const calls = stubFetch(() => new Response(null, { status: 204 }));

    await expect(signOut('northwind')).resolves.toBe('/northwind/login');
    expect(calls[0]!.url).toBe('/api/v1/logout/');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({});
    expect(calls[0]!.init.credentials).toBe('same-origin');
    expect(localStorage.getItem('session')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(localStorage.getItem('navDrawer')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('language')).toBe('el');
    expect(queryClient.getQueryData(queryKeys.wizard.forLanguage('en'))).toBeUndefined();
    expect(getSessionState().tokens).toBeNull();
  });

  it('signOut ends the session here even when the server does not answer', async () => {
    signIn({ access: fakeToken(), user: fakeUser() });
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    await signOut('healthbook');
    expect(getSessionState().user).toBeNull();
    expect(session.get()).toBeNull();
  });

  it('when the request layer destroys the session (refresh answered 401), the user copy and caches go too', () => {
    signIn({ access: fakeToken(), user: fakeUser() });
    sessionStorage.setItem('chatInProgress', 'true');
    session.destroy();
    expect(localStorage.getItem('user')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(getSessionState().user).toBeNull();
  });

  it('another tab signing out ends the session in this one', () => {
    signIn({ access: fakeToken(), user: fakeUser() });
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

  it('staff land on their console: a provider’s appointments, a coach’s chats, an administrator’s people; a patient on the dashboard', () => {
    const landing = (user: Parameters<typeof fakeUser>[0]) => {
      signIn({ access: fakeToken({ access: 'full' }), user: fakeUser(user) });
      return afterSignInPath('healthbook', full);
    };
    expect(landing({ roles: ['professional', 'provider'] })).toBe('/healthbook/provider/appointments');
    expect(landing({ roles: ['professional', 'coach'] })).toBe('/healthbook/provider/chat');
    expect(landing({ roles: ['org_admin'] })).toBe('/healthbook/addUser/home');
    expect(landing({ roles: ['patient'], is_superadmin: true })).toBe('/healthbook/addUser/home');
    expect(landing({ roles: ['patient'] })).toBe('/healthbook/dashboard');
    // The page asked for still wins.
    signIn({ access: fakeToken({ access: 'full' }), user: fakeUser({ roles: ['professional', 'provider'] }) });
    expect(afterSignInPath('healthbook', full, '/healthbook/calendar')).toBe('/healthbook/calendar');
    localStorage.clear();
    session.clear();
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
