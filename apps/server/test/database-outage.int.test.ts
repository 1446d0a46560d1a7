// On PostgreSQL too (vitest.config.ts): the server's pool when the database goes away.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Db } from '../src/db/client';
import { migrateToLatest } from '../src/db/migrations';
import { requestsDatabase } from '../src/db/setup';
import { LocalStorage } from '../src/plugins/storage';
import { openFreshDatabase, testDbKind, TEST_JWT_SECRET } from './build-app';
import { bearer, buildOrganization, buildUser, signIn } from './factories';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

/**
 * A database that stalls (connection open, no answers) or goes away: the API and /api/health
 * answer 503 with Retry-After within 5 s, never hang and never 500; the service recovers on
 * its own when the database is back; closing does not hang. PostgreSQL only (PGlite lives in
 * the process and cannot stall).
 */
const onPostgres = testDbKind() === 'postgres';

describe.runIf(onPostgres)('a database that stalls or goes away', () => {
  let proxy: TcpProxy;
  let fresh: Awaited<ReturnType<typeof openFreshDatabase>>;
  let db: Db;
  let app: FastifyInstance;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    fresh = await openFreshDatabase();
    await migrateToLatest(fresh.db);
    const target = new URL(fresh.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    dataDir = await mkdtemp(path.join(tmpdir(), 'hb-outage-'));
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, { jwtSecret: TEST_JWT_SECRET, webDist: undefined });
    // The defaults of DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_POOL_WAIT_MS (a smaller pool).
    db = await openDatabase(requestsDatabase(proxy.url(fresh.url!), { ...config, databasePoolSize: 5 }));
    app = await buildApp(config, { db, storage: new LocalStorage(path.join(dataDir, 'files')), perIpLimitFloor: 10_000 });
    await app.ready();
    const org = await buildOrganization(app);
    const user = await buildUser(app, { org });
    token = (await signIn(app, { email: user.email, password: user.password, org_id: org.id })).access;
  });

  afterAll(async () => {
    await proxy?.setMode('forward');
    await app?.close();
    await proxy?.close();
    await fresh?.db.destroy();
    await fresh?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const timed = async (url: string, headers: Record<string, string> = {}) => {
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url, headers });
    return { res, ms: Date.now() - started };
  };

  it('stalled: /api/health and the API answer 503 with Retry-After within 5 s; then it recovers without a restart', async () => {
    // Every pooled connection open and idle, as on a busy server, when the database freezes.
    const warm = await Promise.all(Array.from({ length: 10 }, () => timed('/api/v1/me/', bearer(token))));
    expect(warm.map((w) => w.res.statusCode)).toEqual(Array(10).fill(200));
    await proxy.setMode('stall');
    // At once: a signed-in request may still be answered from the session cache (200) for as
    // long as the database's change channel has not yet missed its heartbeat; never 500, never a hang.
    const first = await Promise.all(Array.from({ length: 4 }, () => timed('/api/v1/me/', bearer(token))));
    expect(first.every((a) => [200, 503].includes(a.res.statusCode) && a.ms < 5000)).toBe(true);
    // Within the heartbeat (1 s, 1 s to answer), the cache stops answering: every request reads the database.
    const started = Date.now();
    let status = 200;
    let askedAt = 0;
    while (status === 200 && Date.now() - started < 5000) {
      askedAt = Date.now() - started;
      status = (await timed('/api/v1/me/', bearer(token))).res.statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 100));
    }
    console.log(`[outage] the session cache stopped answering within ${askedAt} ms of the stall`);
    expect(status).toBe(503);
    const urls = ['/api/health', ...Array.from({ length: 8 }, () => '/api/v1/me/'), '/api/v1/organization_detail/'];
    const answers = await Promise.all(urls.map((url) => timed(url, url === '/api/v1/me/' ? bearer(token) : {})));
    const slowest = Math.max(...answers.map((a) => a.ms));
    console.log(`[outage] stalled database: statuses ${answers.map((a) => a.res.statusCode).join(',')}; slowest answer ${slowest} ms`);
    for (const [i, { res }] of answers.entries()) {
      expect(res.statusCode).toBe(503);
      if (urls[i] !== '/api/health') {
        expect(res.headers['retry-after']).toBe('5');
        expect(res.json()).toEqual({ detail: 'The service is temporarily unavailable. Please try again in a moment.' });
      }
    }
    expect(slowest).toBeLessThan(5000);

    await proxy.setMode('forward');
    const back = Date.now();
    while (Date.now() - back < 15_000) {
      status = (await app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(token) })).statusCode;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log(`[outage] recovered after ${Date.now() - back} ms`);
    expect(status).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('down: 503 with Retry-After, not 500; back up: 200', async () => {
    await proxy.setMode('down');
    const { res, ms } = await timed('/api/v1/me/', bearer(token));
    console.log(`[outage] database down: ${res.statusCode} in ${ms} ms`);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect((await timed('/api/health')).res.statusCode).toBe(503);
    const el = await app.inject({ method: 'GET', url: '/api/v1/organization_detail/', headers: { 'accept-language': 'el' } });
    expect(el.json()).toEqual({ detail: 'Η υπηρεσία δεν είναι διαθέσιμη αυτή τη στιγμή. Δοκιμάστε ξανά σε λίγο.' });
    await proxy.setMode('forward');
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(token) })).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });

  it('closing while the database is stalled finishes within a few seconds', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, { jwtSecret: TEST_JWT_SECRET, webDist: undefined });
    const db2 = await openDatabase({ kind: 'postgres', url: proxy.url(fresh.url!), poolSize: 3, timeouts: { connectMs: 2000, statementMs: 3000 } });
    const other = await buildApp(config, { db: db2, storage: new LocalStorage(path.join(dataDir, 'files')) });
    await other.ready();
    // Idle connections in the pool, then the database freezes.
    await Promise.all(Array.from({ length: 3 }, () => other.inject({ method: 'GET', url: '/api/v1/organization_detail/' })));
    await proxy.setMode('stall');
    const started = Date.now();
    await other.close();
    const ms = Date.now() - started;
    await proxy.setMode('forward');
    console.log(`[outage] close with a stalled database: ${ms} ms`);
    expect(ms).toBeLessThan(4000);
  });
});
