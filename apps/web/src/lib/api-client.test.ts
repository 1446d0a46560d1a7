import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient } from './api-client';
import { session } from './session';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function setup(handler: Handler, lang = 'el') {
  const calls: Array<{ url: string; headers: Record<string, string>; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, headers: { ...(init.headers as Record<string, string>) }, body: init.body ? JSON.parse(String(init.body)) : undefined });
    return handler(url, init);
  });
  const client = createApiClient({ fetch: fetchMock as unknown as typeof fetch, getLanguage: () => lang });
  return { client, calls, fetchMock };
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

    session.set({ access: 'A1', refresh: 'R1' });
    await client.get('/api/v1/me/');
    expect(calls[1]!.headers.Authorization).toBe('Bearer A1');
  });

  it('sends JSON bodies with their content type and answers the parsed body', async () => {
    const { client, calls } = setup(() => json(201, { id: 7 }));
    await expect(client.post('/api/v1/things/', { name: 'x' })).resolves.toEqual({ id: 7 });
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
    expect(calls[0]!.body).toEqual({ name: 'x' });
  });

  it('on a 401 with a token, renews the token and retries the request once with the new one', async () => {
    session.set({ access: 'old', refresh: 'R1' });
    const { client, calls } = setup((url, init) => {
      if (url === '/api/v1/refresh/') return json(200, { access: 'new' });
      return authOf(init) === 'Bearer new' ? json(200, { me: 1 }) : json(401, { detail: 'Token expired' });
    });
    await expect(client.get('/api/v1/me/')).resolves.toEqual({ me: 1 });
    expect(calls.map((c) => c.url)).toEqual(['/api/v1/me/', '/api/v1/refresh/', '/api/v1/me/']);
    expect(calls[1]!.body).toEqual({ refresh: 'R1' });
    expect(session.get()).toEqual({ access: 'new', refresh: 'R1' });
  });

  it('keeps a rotated refresh token from the renewal', async () => {
    session.set({ access: 'old', refresh: 'R1' });
    const { client } = setup((url, init) => {
      if (url === '/api/v1/refresh/') return json(200, { access: 'new', refresh: 'R2' });
      return authOf(init) === 'Bearer new' ? json(200, {}) : json(401, { detail: 'expired' });
    });
    await client.get('/api/v1/me/');
    expect(session.get()).toEqual({ access: 'new', refresh: 'R2' });
  });

  it('retries only once: a second 401 is rejected', async () => {
    session.set({ access: 'old', refresh: 'R1' });
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
    session.set({ access: 'A', refresh: 'R' });
    const { client, calls } = setup(() => json(401, { detail: 'Incorrect authentication credentials.' }));
    await expect(client.post('/api/v1/login/', { email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      status: 401,
      data: { detail: 'Incorrect authentication credentials.' },
    });
    expect(calls).toHaveLength(1);
  });

  it('does not renew for a 401 from the refresh call itself', async () => {
    session.set({ access: 'A', refresh: 'R' });
    const { client, calls } = setup(() => json(401, { detail: 'Token is invalid or expired' }));
    await expect(client.post('/api/v1/refresh/', { refresh: 'R' })).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
  });

  it('ends the session when the renewal answers 401, and rejects the request', async () => {
    session.set({ access: 'old', refresh: 'R-revoked' });
    const destroyed = vi.fn();
    const off = session.onDestroy(destroyed);
    const { client } = setup((url) => (url === '/api/v1/refresh/' ? json(401, { detail: 'Token is blacklisted' }) : json(401, { detail: 'expired' })));
    await expect(client.get('/api/v1/me/')).rejects.toMatchObject({ status: 401 });
    expect(session.get()).toBeNull();
    expect(destroyed).toHaveBeenCalledOnce();
    off();
  });

  it('keeps the session when the renewal fails for another reason (server down)', async () => {
    session.set({ access: 'old', refresh: 'R' });
    const { client } = setup((url) => (url === '/api/v1/refresh/' ? json(503, { detail: 'restarting' }) : json(401, { detail: 'expired' })));
    await expect(client.get('/api/v1/me/')).rejects.toMatchObject({ status: 401 });
    expect(session.get()).toEqual({ access: 'old', refresh: 'R' });
  });

  it('several requests failing at once share one renewal', async () => {
    session.set({ access: 'old', refresh: 'R1' });
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

  it('rejects other errors with their status and body', async () => {
    const { client } = setup(() => json(400, { email: ['E-mail must be valid'] }));
    await expect(client.post('/api/v1/x/', {})).rejects.toMatchObject({ status: 400, data: { email: ['E-mail must be valid'] } });
  });
});
