import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, TOKEN_RENEWAL_LOCK, type Locks } from './api-client';
import { session } from './session';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function setup(handler: Handler, lang = 'el', locks?: Locks) {
  const calls: Array<{ url: string; headers: Record<string, string>; body: unknown; credentials: RequestCredentials | undefined }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, headers: { ...(init.headers as Record<string, string>) }, body: init.body ? JSON.parse(String(init.body)) : undefined, credentials: init.credentials });
    return handler(url, init);
  });
  const client = createApiClient({ fetch: fetchMock as unknown as typeof fetch, getLanguage: () => lang, locks });
  return { client, calls, fetchMock };
}

/** navigator.locks as the tabs of one browser share it: one holder of a name at a time, the others queue. */
function sharedLocks() {
  const queues = new Map<string, Promise<unknown>>();
  const requested: string[] = [];
  const locks: Locks = {
    request(name, callback) {
      requested.push(name);
      const previous = queues.get(name) ?? Promise.resolve();
      const run = previous.then(callback, callback);
      queues.set(name, run.catch(() => undefined));
      return run;
    },
  };
  return { locks, requested };
}

const authOf = (init: RequestInit) => (init.headers as Record<string, string>).Authorization;

describe('api client', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.restoreAllMocks());

  it('sends Accept-Language always and the bearer token when signed in', async () => {
    const { client, calls } = setup(() => json(200, { ok: true }));
    await client.get('/api/v1/organization_detail/');
    expect(calls[0]!.headers['Accept-Language']).toBe('el');
    expect(calls[0]!.headers.Authorization).toBeUndefined();

    session.set({ access: 'A1' });
    await client.get('/api/v1/me/');
    expect(calls[1]!.headers.Authorization).toBe('Bearer A1');
  });

  it('sends JSON bodies with their content type and answers the parsed body', async () => {
    const { client, calls } = setup(() => json(201, { id: 7 }));
    await expect(client.post('/api/v1/things/', { name: 'x' })).resolves.toEqual({ id: 7 });
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
    expect(calls[0]!.body).toEqual({ name: 'x' });
  });

  it('on a 401 with a token, renews the token with the refresh cookie ({} as the body) and retries the request once with the new one', async () => {
    session.set({ access: 'old' });
    const { client, calls } = setup((url, init) => {
      if (url === '/api/v1/refresh/') return json(200, { access: 'new' });
      return authOf(init) === 'Bearer new' ? json(200, { me: 1 }) : json(401, { detail: 'Token expired' });
    });
    await expect(client.get('/api/v1/me/')).resolves.toEqual({ me: 1 });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/me/', '/api/v1/refresh/', '/api/v1/me/']);
    expect(calls[1]!.body).toEqual({});
    expect(calls[1]!.credentials).toBe('same-origin');
    expect(calls[1]!.headers.Authorization).toBeUndefined();
    expect(session.get()).toEqual({ access: 'new' });
  });

  it('keeps only the access token of the renewal: a refresh token in the answer is not stored', async () => {
    session.set({ access: 'old' });
    const { client } = setup((url, init) => {
      if (url === '/api/v1/refresh/') return json(200, { access: 'new', refresh: 'R2' });
      return authOf(init) === 'Bearer new' ? json(200, {}) : json(401, { detail: 'expired' });
    });
    await client.get('/api/v1/me/');
    expect(session.get()).toEqual({ access: 'new' });
    expect(localStorage.getItem('session')).not.toContain('R2');
  });

  it('retries only once: a second 401 is rejected', async () => {
    session.set({ access: 'old' });
    const { client, calls } = setup((url) => (url === '/api/v1/refresh/' ? json(200, { access: 'new' }) : json(401, { detail: 'no' })));
    await expect(client.get('/api/v1/me/')).rejects.toMatchObject({ status: 401 });
    expect(calls.filter((c) => c.url === '/api/v1/me/')).toHaveLength(2);
    expect(calls.filter((c) => c.url === '/api/v1/refresh/')).toHaveLength(1);
  });

  it('does not renew for a 401 without a token', async () => {
    const { client, calls } = setup(() => json(401, { detail: 'Authentication credentials were not provided.' }));
    await expect(client.get('/api/v1/me/')).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  it('does not renew when the answer is "Incorrect authentication credentials."', async () => {
    session.set({ access: 'A' });
    const { client, calls } = setup(() => json(401, { detail: 'Incorrect authentication credentials.' }));
    await expect(client.post('/api/v1/login/', { email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      status: 401,
      data: { detail: 'Incorrect authentication credentials.' },
    });
    expect(calls).toHaveLength(1);
  });

  it('does not renew for a 401 from the refresh call itself', async () => {
    session.set({ access: 'A' });
    const { client, calls } = setup(() => json(401, { detail: 'Token is invalid or expired' }));
    await expect(client.post('/api/v1/refresh/', {})).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
  });

  it('ends the session when the renewal answers 401, and rejects the request', async () => {
    session.set({ access: 'old' });
    const destroyed = vi.fn();
    const off = session.onDestroy(destroyed);
    const { client } = setup((url) => (url === '/api/v1/refresh/' ? json(401, { detail: 'Token is blacklisted' }) : json(401, { detail: 'expired' })));
    await expect(client.get('/api/v1/me/')).rejects.toMatchObject({ status: 401 });
    expect(session.get()).toBeNull();
    expect(destroyed).toHaveBeenCalledOnce();
    off();
  });

  it('keeps the session when the renewal fails for another reason (server down)', async () => {
    session.set({ access: 'old' });
    const { client } = setup((url) => (url === '/api/v1/refresh/' ? json(503, { detail: 'restarting' }) : json(401, { detail: 'expired' })));
    await expect(client.get('/api/v1/me/')).rejects.toMatchObject({ status: 401 });
    expect(session.get()).toEqual({ access: 'old' });
  });

  it('several requests failing at once share one renewal', async () => {
    session.set({ access: 'old' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { client, calls } = setup(async (url, init) => {
      if (url === '/api/v1/refresh/') {
        await gate;
        return json(200, { access: 'new' });
      }
      return authOf(init) === 'Bearer new' ? json(200, { url }) : json(401, { detail: 'expired' });
    });
    const pending = Promise.all([client.get('/a'), client.get('/b'), client.get('/c')]);
    await vi.waitFor(() => expect(calls.filter((c) => c.url === '/api/v1/refresh/')).toHaveLength(1));
    release();
    await expect(pending).resolves.toEqual([{ url: '/a' }, { url: '/b' }, { url: '/c' }]);
    expect(calls.filter((c) => c.url === '/api/v1/refresh/')).toHaveLength(1);
  });

  it('renews under the Web Lock shared by the tabs', async () => {
    session.set({ access: 'old' });
    const { locks, requested } = sharedLocks();
    const { client } = setup((url, init) => {
      if (url === '/api/v1/refresh/') return json(200, { access: 'new' });
      return authOf(init) === 'Bearer new' ? json(200, { ok: 1 }) : json(401, { detail: 'expired' });
    }, 'en', locks);
    await expect(client.get('/api/v1/me/')).resolves.toEqual({ ok: 1 });
    expect(requested).toEqual([TOKEN_RENEWAL_LOCK]);
  });

  it('once it holds the lock, uses the token another tab renewed meanwhile instead of renewing again', async () => {
    session.set({ access: 'old' });
    const { locks } = sharedLocks();
    // Another tab holds the lock while it renews: it stores 'renewed-elsewhere' and lets go.
    let release!: () => void;
    void locks.request(TOKEN_RENEWAL_LOCK, () => new Promise<null>((resolve) => (release = () => resolve(null))));
    const { client, calls } = setup((url, init) => {
      if (url === '/api/v1/refresh/') return json(200, { access: 'second-renewal' });
      return authOf(init) === 'Bearer renewed-elsewhere' ? json(200, { ok: 1 }) : json(401, { detail: 'expired' });
    }, 'en', locks);
    const pending = client.get('/api/v1/me/');
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    session.set({ access: 'renewed-elsewhere' });
    release();
    await expect(pending).resolves.toEqual({ ok: 1 });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/me/', '/api/v1/me/']);
    expect(session.get()).toEqual({ access: 'renewed-elsewhere' });
  });

  it('two tabs failing at once renew the rotating cookie once: the second uses the first one\'s token', async () => {
    session.set({ access: 'old' });
    const { locks } = sharedLocks();
    const refreshes: string[] = [];
    const server: Handler = async (url, init) => {
      if (url === '/api/v1/refresh/') {
        refreshes.push(url);
        // A rotated refresh token presented again would end the session: only one may pass.
        return refreshes.length === 1 ? json(200, { access: 'new' }) : json(401, { detail: 'Token is blacklisted' });
      }
      return authOf(init) === 'Bearer new' ? json(200, { url }) : json(401, { detail: 'expired' });
    };
    const tabA = setup(server, 'en', locks);
    const tabB = setup(server, 'en', locks);
    await expect(Promise.all([tabA.client.get('/a'), tabB.client.get('/b')])).resolves.toEqual([{ url: '/a' }, { url: '/b' }]);
    expect(refreshes).toHaveLength(1);
    expect(session.get()).toEqual({ access: 'new' });
  });

  it('without Web Locks (jsdom, older browsers) a tab renews on its own', async () => {
    expect((globalThis.navigator as Navigator & { locks?: unknown }).locks).toBeUndefined();
    session.set({ access: 'old' });
    const { client, calls } = setup((url, init) => {
      if (url === '/api/v1/refresh/') return json(200, { access: 'new' });
      return authOf(init) === 'Bearer new' ? json(200, { ok: 1 }) : json(401, { detail: 'expired' });
    });
    await expect(client.get('/api/v1/me/')).resolves.toEqual({ ok: 1 });
    expect(calls.filter((c) => c.url === '/api/v1/refresh/')).toHaveLength(1);
  });

  it('rejects other errors with their status and body', async () => {
    const { client } = setup(() => json(400, { email: ['E-mail must be valid'] }));
    await expect(client.post('/api/v1/x/', {})).rejects.toMatchObject({ status: 400, data: { email: ['E-mail must be valid'] } });
  });
});
