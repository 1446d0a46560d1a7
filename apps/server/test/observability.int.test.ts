import { Redis } from 'ioredis';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthRecord, Readiness } from '@healthbook/shared';
import { LocalStorage } from '../src/plugins/storage';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { redisReachable } from './redis';

/** Health endpoints for load balancers, and Prometheus metrics for monitoring (issue 26, §3). */

const METRICS_TOKEN = 'metrics-token-0123456789-abcdefghijklmnop';
const withRedis = await redisReachable();

describe('health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('live: the process answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('ready: the database and the file store answer (Redis not configured)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Readiness>()).toEqual({ status: 'ok', database: 'ok', redis: 'not configured', storage: 'ok' });
  });

  it('ready: a file store that cannot be written is 503 naming it; liveness does not depend on it', async () => {
    class Broken extends LocalStorage {
      override check(): Promise<void> {
        return Promise.reject(new Error('read-only file system'));
      }
    }
    const broken = await buildTestApp({ storage: new Broken('/nonexistent') });
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json<Readiness>()).toEqual({ status: 'unavailable', database: 'ok', redis: 'not configured', storage: 'unavailable' });
      expect((await broken.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    } finally {
      await broken.close();
    }
  });

  it.runIf(withRedis)('ready: Redis, when configured, must answer', async () => {
    const redis = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 0 });
    const app = await buildTestApp({ redis });
    try {
      expect((await app.app.inject({ method: 'GET', url: '/api/health/ready' })).json<Readiness>()).toMatchObject({ status: 'ok', redis: 'ok' });
      // Redis goes away: this process is no longer ready (its sessions, limits and chat depend on it).
      redis.disconnect();
      const res = await app.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json<Readiness>()).toMatchObject({ status: 'unavailable', redis: 'unavailable', database: 'ok' });
    } finally {
      await app.close();
    }
  });

  it('metrics are off unless configured', async () => {
    expect(t.app.metrics).toBeUndefined();
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('metrics', () => {
  let t: TestApp;
  let patient: BuiltUser;
  let token: string;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN, METRICS_PORT: '0' } });
    const org = await buildOrganization(t.app, { name: 'metrics-clinic', org_name: 'Metrics Clinic' });
    patient = await buildUser(t.app, { org, first_name: 'Zebedee', last_name: 'Quigley', dob: '1966-06-06' });
    token = (await signIn(t.app, { email: patient.email, password: patient.password, org_id: patient.org_id })).access;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.metricsServer!.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  it('on the product\'s port, only for the scraper holding METRICS_TOKEN', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${METRICS_TOKEN}x`, `Bearer ${token}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('healthbook_');
    }
    expect(await scrape()).toContain('healthbook_http_requests_total');
  });

  it('on its own listener (METRICS_PORT), which serves nothing else', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('healthbook_nodejs_eventloop_lag_seconds');
    expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(404);
  });

  it('counts requests by route pattern and status class, times them, and never labels a name, an e-mail, an id or a token', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/hr/condition/', headers: bearer(token), payload: { name: 'Quigley syndrome', note: 'Zebedee' } });
    expect(created.statusCode).toBe(201);
    const id = created.json<HealthRecord>().id;
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ method: 'GET', url: `/api/v1/hr/condition/${id}/`, headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/hr/condition/${id + 1000}/`, headers: bearer(token) })).statusCode).toBe(404);
    await t.app.inject({ method: 'GET', url: `/api/v1/no/such/route/${patient.email}` });

    const text = await scrape();
    expect(text).toMatch(/healthbook_http_requests_total\{method="GET",route="\/api\/v1\/hr\/condition\/:id\/",status="2xx"\} 3/);
    expect(text).toMatch(/healthbook_http_requests_total\{method="GET",route="\/api\/v1\/hr\/condition\/:id\/",status="4xx"\} 1/);
    expect(text).toMatch(/healthbook_http_requests_total\{method="POST",route="\/api\/v1\/hr\/condition\/",status="2xx"\} 1/);
    expect(text).toMatch(/healthbook_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/hr\/condition\/:id\/"\} 4/);
    expect(text).toContain('route="unmatched"');
    for (const secret of ['Zebedee', 'Quigley', patient.email, `/${id}/`, token, METRICS_TOKEN]) expect(text).not.toContain(secret);
  });

  it('reports the database pool, chat sockets and queue, reminders due and mail failures', async () => {
    const text = await scrape();
    for (const name of ['healthbook_db_pool_connections{state="busy"}', 'healthbook_db_pool_connections{state="waiting"}', 'healthbook_chat_sockets 0', 'healthbook_chat_queue_length 0', 'healthbook_reminders_due 0', 'healthbook_process_resident_memory_bytes']) {
      expect(text).toContain(name);
    }
    expect(text).toMatch(/healthbook_mail_failures_total 0/);
    // A message the mail server refuses: counted.
    const mailer = (t.app.backgroundMail as unknown as { mailer: { send: (m: unknown) => Promise<void> } }).mailer;
    const send = mailer.send.bind(mailer);
    mailer.send = () => Promise.reject(new Error('550 refused'));
    try {
      t.app.backgroundMail.send({ to: 'someone@example.org', subject: 'x', text: 'x' } as never);
      await t.app.backgroundMail.drain();
    } finally {
      mailer.send = send;
    }
    expect(await scrape()).toMatch(/healthbook_mail_failures_total 1/);
  });
});
