// On PostgreSQL too (vitest.config.ts): the server's pool under a burst.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolGates } from '../src/db/client';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn } from './factories';

/**
 * The PostgreSQL pool (issue 24): a burst larger than the pool waits in its queue for a free
 * connection instead of failing with 503; the pool's size and the longest wait come from the
 * configuration (DATABASE_POOL_SIZE, DATABASE_POOL_WAIT_MS), and a wait that runs out is 503.
 * Opening a new connection keeps its own, short limit (DATABASE_CONNECT_TIMEOUT_MS).
 */

const onPostgres = testDbKind() === 'postgres';

async function signedIn(t: TestApp): Promise<string> {
  const org = await buildOrganization(t.app, { name: `pool-${Math.random().toString(36).slice(2, 8)}` });
  const user = await buildUser(t.app, { org });
  return (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
}

const event = (i: number) => ({
  title: `Burst ${i}`,
  type: 'Excercise',
  start_time: '2026-03-23T16:00:00Z',
  end_time: '2026-03-23T17:00:00Z',
});

describe.skipIf(!onPostgres)('a burst larger than the pool', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    // A small pool and a new connection's limit far below what the burst takes: only a queue that waits lets all pass.
    t = await buildTestApp({ poolFromConfig: true, env: { DATABASE_POOL_SIZE: '3', DATABASE_POOL_WAIT_MS: '30000', DATABASE_CONNECT_TIMEOUT_MS: '200' } });
    token = await signedIn(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('50 parallel event creations all succeed, waiting for one of the configured connections', async () => {
    const gate = poolGates.get(t.db)!;
    let peakBusy = 0;
    let peakWaiting = 0;
    const watch = setInterval(() => {
      peakBusy = Math.max(peakBusy, gate.stats.busy);
      peakWaiting = Math.max(peakWaiting, gate.stats.waiting);
    }, 1);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/v1/calendar/events/', headers: bearer(token), payload: event(i) })),
    );
    clearInterval(watch);
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s !== 201), answers.find((a) => a.statusCode !== 201)?.body).toEqual([]);
    expect(new Set(answers.map((a) => a.json<{ event_id: number }>().event_id)).size).toBe(50);
    expect(gate.size).toBe(3);
    expect(gate.waitMs).toBe(30_000);
    expect(peakBusy).toBeLessThanOrEqual(3);
    expect(peakWaiting).toBeGreaterThan(0);
    expect(gate.stats).toEqual({ busy: 0, waiting: 0 });
  });
});

describe.skipIf(!onPostgres)('a wait for the pool that runs out', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await buildTestApp({ poolFromConfig: true, env: { DATABASE_POOL_SIZE: '1', DATABASE_POOL_WAIT_MS: '300' } });
    token = await signedIn(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 with Retry-After once DATABASE_POOL_WAIT_MS has passed, and serves again when a connection is free', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The only connection, taken by a long piece of work.
    const holder = t.db.connection().execute(async () => held);
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/calendar/events/', headers: bearer(token), payload: event(0) });
    const waited = Date.now() - started;
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(waited).toBeGreaterThanOrEqual(250);
    release();
    await holder;
    const served = await t.app.inject({ method: 'POST', url: '/api/v1/calendar/events/', headers: bearer(token), payload: event(1) });
    expect(served.statusCode, served.body).toBe(201);
  });
});
