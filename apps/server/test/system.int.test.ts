import { describe, expect, it } from 'vitest';
import { buildTestApp, captureLogs, useTestApp } from './build-app';

const t = useTestApp();

describe('HEAD /api/ping', () => {
  it('answers 200 with no body and no caching', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/api/ping' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/health', () => {
  it('reports the service and the database as ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', uptime_s: expect.any(Number) });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers 503 when the database does not answer', async () => {
    const other = await buildTestApp();
    try {
      await other.db.destroy();
      const res = await other.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'unavailable', database: 'unavailable' });
    } finally {
      await other.close();
    }
  });
});

describe('security headers', () => {
  it.each(['/api/health', '/api/v1/organization_detail/', '/api/no-such-thing'])('API answers get the REST set on %s', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['cache-control']).toMatch(/no-store|public, no-cache/);
  });

  it('the API docs (a page) get a document policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each(['/healthbook/login'])('pages get the document policy on %s', async (url) => {
    const res = await t.app.inject({ method: 'GET', url });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/default-src 'self'|default-src 'none'/);
    // No plugin content but the app's own blob: PDFs (an export opened in a new tab).
    expect(csp).toMatch(/object-src blob:(;|$)/);
    // Frames: the app's own pages and its blob: previews of documents.
    expect(csp).toMatch(/frame-src 'self' blob:(;|$)/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Boolean(res.headers['x-frame-options']) || /frame-ancestors 'none'/.test(csp)).toBe(true);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('X-Request-Id', () => {
  it('echoes a well-formed id from the client', async () => {
    const id = 'client-req-0123456789';
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).toBe(id);
  });

  it.each([
    ['too short', 'abc'],
    ['with unsafe characters', 'bad id <script>'],
    ['too long', 'x'.repeat(65)],
  ])('generates a new id for one that is %s', async (_label, id) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).not.toBe(id);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('generates a different id for every request without one', async () => {
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'GET', url: '/api/no-such-thing' }),
    ]);
    expect(a.headers['x-request-id']).toBeTruthy();
    expect(b.headers['x-request-id']).toBeTruthy();
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });
});

describe('request logs', () => {
  it('do not carry query strings or token path segments', async () => {
    const logs = captureLogs(t.app);
    try {
      await t.app.inject({ method: 'GET', url: '/api/v1/reset/s3cr3t-reset-token?email=maria%40example.test' });
    } finally {
      logs.restore();
    }
    const text = logs.lines.join('');
    // The route's pattern, never the path (this one matches no route).
    expect(text).toContain('"route":"unmatched"');
    expect(text).not.toContain('s3cr3t-reset-token');
    expect(text).not.toContain('maria');
  });
});

describe('GET /api/docs/json', () => {
  it('is an OpenAPI document describing the organisation routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; info: { title: string }; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('HealthBook API');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/organization_detail_by_name/{name}',
        '/api/v1/organization_detail/',
        '/api/v1/organizations/{name}/{asset}',
        '/api/health',
      ]),
    );
    expect(doc.paths['/api/v1/organization_detail_by_name/{name}']).toHaveProperty('get');
  });

  it('serves the browsable documentation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('/dev/mailbox', () => {
  it('is there outside production', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Development mailbox');
    const messages = await t.app.inject({ method: 'GET', url: '/dev/mailbox/messages' });
    expect(messages.statusCode).toBe(200);
    expect(messages.json()).toEqual([]);
  });

  it('is absent in production', async () => {
    const prod = await buildTestApp({ env: { NODE_ENV: 'production' } });
    try {
      expect(prod.config.env).toBe('production');
      for (const url of ['/dev/mailbox', '/dev/mailbox/messages']) {
        const res = await prod.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
      // The rest of the API is there as usual.
      expect((await prod.app.inject({ method: 'HEAD', url: '/api/ping' })).statusCode).toBe(200);
    } finally {
      await prod.close();
    }
  });
});

describe('the built web app', () => {
  it('answers page addresses with index.html and serves its files, without a token', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dist = await mkdtemp(path.join(tmpdir(), 'hb-web-'));
    await mkdir(path.join(dist, 'assets'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>HealthBook</title><div id="root"></div>');
    await writeFile(path.join(dist, 'assets', 'main-abc123.js'), 'console.log(1)');
    const web = await buildTestApp({ config: { webDist: dist } });
    try {
      const page = await web.app.inject({ method: 'GET', url: '/healthbook/login' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('<div id="root">');
      const asset = await web.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await web.app.inject({ method: 'GET', url: '/assets/gone-000.js' })).statusCode).toBe(404);
      expect((await web.app.inject({ method: 'GET', url: '/api/v1/nothing' })).json()).toEqual({ detail: 'Not found.' });
    } finally {
      await web.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});
