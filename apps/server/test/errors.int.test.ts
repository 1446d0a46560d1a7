import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './build-app';

/**
 * Bad input from a client gets a Django-REST shaped, localised answer, and never takes the
 * server down. Requests go over a real socket so the last check (the server still answers)
 * means something.
 */

const t = useTestApp({
  setup(app) {
    // A test-only JSON route, so the body parsers run (they only run for existing routes).
    app.post('/api/test/echo', async (request) => ({ received: request.body }));
  },
});

let base: { host: string; port: number };

beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  base = { host: '127.0.0.1', port };
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): unknown;
}

/** A raw HTTP/1.1 request: the path goes out exactly as written, the body as given. */
function request(method: string, path: string, opts: { headers?: Record<string, string | number>; body?: string | Buffer } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ ...base, method, path, headers: { connection: 'close', ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    // The server may answer (413) before it has read the whole body; that is not a client failure.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    req.end(opts.body);
  });
}

afterEach(async () => {
  // Whatever the last test sent, the server still answers.
  const ping = await request('HEAD', '/api/ping');
  expect(ping.status).toBe(200);
});

describe('an unknown /api address', () => {
  it('answers 404 {"detail": "Not found."}', async () => {
    const res = await request('GET', '/api/v1/no-such-endpoint/');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers in Greek with Accept-Language: el', async () => {
    const res = await request('GET', '/api/v1/no-such-endpoint/', { headers: { 'accept-language': 'el-GR,el;q=0.9,en;q=0.8' } });
    expect(res.status).toBe(404);
    expect(res.headers['content-language']).toBe('el');
    expect(res.json()).toEqual({ detail: 'Δεν βρέθηκε.' });
  });

  it('falls back to English for an unsupported language', async () => {
    const res = await request('GET', '/api/v1/no-such-endpoint/', { headers: { 'accept-language': 'fr-FR,de;q=0.8' } });
    expect(res.status).toBe(404);
    expect(res.headers['content-language']).toBe('en');
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers 404 for a method the address does not have', async () => {
    const res = await request('DELETE', '/api/health');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers 404 JSON under /dev too, not a web page', async () => {
    const res = await request('GET', '/dev/no-such-page');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });
});

describe('request bodies', () => {
  it('accepts valid JSON (the test route works)', async () => {
    const res = await request('POST', '/api/test/echo', { headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ received: { a: 1 } });
  });

  it('answers 400 {"detail"} for invalid JSON', async () => {
    const res = await request('POST', '/api/test/echo', { headers: { 'content-type': 'application/json' }, body: '{"a": 1,' });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail: 'The request body is not valid JSON.' });
  });

  it('answers 400 {"detail"} for invalid JSON, in Greek', async () => {
    const res = await request('POST', '/api/test/echo', {
      headers: { 'content-type': 'application/json', 'accept-language': 'el' },
      body: 'not json',
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail: 'Το σώμα του αιτήματος δεν είναι έγκυρο JSON.' });
  });

  it('answers 400 {"detail"} for an empty body declared as JSON', async () => {
    const res = await request('POST', '/api/test/echo', { headers: { 'content-type': 'application/json' }, body: '' });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail: 'The request body is empty, but its content type says it is JSON.' });
  });

  it('answers 415 {"detail"} for a content type the API does not take', async () => {
    const res = await request('POST', '/api/test/echo', { headers: { 'content-type': 'application/xml' }, body: '<a>1</a>' });
    expect(res.status).toBe(415);
    expect(res.json()).toEqual({ detail: 'Unsupported media type "application/xml" in request.' });
  });

  it('answers 413 {"detail"} for a body over 1 MB', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) });
    const res = await request('POST', '/api/test/echo', { headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ detail: 'The request body is too large. The limit is 1 MB.' });
  });

  it('accepts a JSON body just under 1 MB', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 - 100) });
    const res = await request('POST', '/api/test/echo', { headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(200);
  });

  it('answers 413 {"detail"} for a chunked body that grows over 1 MB', async () => {
    const res = await request('POST', '/api/test/echo', {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(res.json()).toMatchObject({ detail: expect.any(String) });
  });
});

describe('malformed addresses', () => {
  it.each(['/api/v1/organization_detail_by_name/%E0%A4%A', '/api/v1/organizations/%zz/logo'])('answer 400 {"detail"} for %s', async (path) => {
    const res = await request('GET', path);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail: 'The request address is malformed.' });
  });

  it('answer in Greek with Accept-Language: el', async () => {
    const res = await request('GET', '/api/v1/organization_detail_by_name/%E0%A4%A', { headers: { 'accept-language': 'el' } });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ detail: 'Η διεύθυνση του αιτήματος δεν είναι έγκυρη.' });
  });
});

describe('values PostgreSQL cannot take are field errors, on every route', () => {
  const json = (method: string, path: string, payload: unknown, headers: Record<string, string> = {}) =>
    request(method, path, { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(payload) });

  it('a NUL character in any text: {"field": ["Null characters are not allowed."]}', async () => {
    const login = await json('POST', '/api/v1/login/', { email: 'maria\u0000@example.test', password: 'x', org: 'healthbook' });
    expect(login.status).toBe(400);
    expect(login.json()).toEqual({ email: ['Null characters are not allowed.'] });
    const el = await json('POST', '/api/v1/reset_password/', { org_id: 'a\u0000b', email: 'a@b.co' }, { 'accept-language': 'el' });
    expect(el.json()).toEqual({ org_id: ['Δεν επιτρέπονται χαρακτήρες null.'] });
    for (const path of ['/api/v1/organization_detail_by_name/%00', '/api/v1/organizations/%00/logo']) {
      const res = await request('GET', path);
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ name: ['Null characters are not allowed.'] });
    }
  });

  it('an id beyond 2^31-1, as a number or as digits, in a body or a query: a field error', async () => {
    for (const org of [2 ** 31, '99999999999']) {
      const res = await json('POST', '/api/v1/login/', { email: 'a@b.co', password: 'x', org });
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ org: ['Ensure this value is less than or equal to 2147483647.'] });
    }
    const path = await request('GET', '/api/v1/users/99999999999', { headers: { authorization: 'Bearer x' } });
    expect(path.status).toBe(401); // authentication comes first; the id rule is the same field error behind it
  });

  it('a name of only white space or zero-width characters is refused', async () => {
    const res = await json('POST', '/api/v1/users/coderetrieval/', { org_id: 1, first_name: '\u200B\u200C', last_name: 'x', DOB: '01/01/1990' });
    expect(res.status).toBe(400);
    expect(res.json()).toHaveProperty('first_name');
  });
});
