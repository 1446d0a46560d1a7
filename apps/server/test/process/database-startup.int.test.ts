// Once, in the PGlite project: its servers use the PostgreSQL server of TEST_DATABASE_URL whichever project runs it.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { exitWithin, freePort, killed, postgresReachable, run, startServer, type Proc } from './support';

/**
 * Start-up on PostgreSQL when the database does not answer: the server retries for
 * DATABASE_STARTUP_WAIT_S, one line a try naming DATABASE_URL (password hidden), then gives up with
 * one clear line and exit code 69 — no stack trace. A database that comes up in time is used.
 */

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const STACK_LINE = /^\s+at .+\(?.+:\d+:\d+\)?$/m;

const postgresUp = await postgresReachable(ADMIN_URL);

async function admin(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql, params);
  } finally {
    await client.end();
  }
}

/** A TCP proxy to PostgreSQL that resets every connection for `downMs` from the first one, then forwards. */
async function lateProxy(target: URL, downMs: number) {
  const sockets = new Set<net.Socket>();
  let refused = 0;
  let openAt: number | undefined;
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    openAt ??= Date.now() + downMs;
    if (Date.now() < openAt) {
      refused++;
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    refused: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

describe('start-up with DATABASE_URL', () => {
  const procs: Proc[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const proc of procs.splice(0)) await killed(proc);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hb-dburl-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  };

  it('gives up after DATABASE_STARTUP_WAIT_S with one clear line naming DATABASE_URL, exit 69, no stack trace', async () => {
    const port = await freePort(); // nothing listens there
    const server = run('server', [], {
      DATA_DIR: await tempDir(),
      PORT: '0',
      DATABASE_URL: `postgres://healthbook:s3cret-pw@127.0.0.1:${port}/healthbook`,
      DATABASE_STARTUP_WAIT_S: '2',
    });
    procs.push(server);
    const { code } = await exitWithin(server, 30_000);
    const out = server.stdout() + server.stderr();
    expect(code).toBe(69);
    const shown = `postgres://healthbook:***@127.0.0.1:${port}/healthbook`;
    expect(server.stderr().trim()).toBe(
      `the database at DATABASE_URL ${shown} did not answer within 2 s (ECONNREFUSED); ` +
        'start PostgreSQL or correct DATABASE_URL (DATABASE_STARTUP_WAIT_S sets how long to wait)',
    );
    // One line a try while it waited.
    const tries = out.split('\n').filter((line) => line.includes(`database at DATABASE_URL ${shown} does not answer (ECONNREFUSED); try`));
    expect(tries.length).toBeGreaterThanOrEqual(2);
    expect(out).not.toContain('s3cret-pw');
    expect(out).not.toMatch(STACK_LINE);
  });

  it.skipIf(!postgresUp)('comes up when the database starts answering within the wait', async () => {
    const name = `hb_test_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE DATABASE "${name}"`);
    cleanups.push(async () => {
      await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      await admin(`DROP DATABASE IF EXISTS "${name}"`);
    });
    const target = new URL(ADMIN_URL);
    const proxy = await lateProxy(target, 1500);
    cleanups.push(proxy.close);
    const viaProxy = new URL(ADMIN_URL);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    viaProxy.pathname = `/${name}`;
    const dataDir = await tempDir();

    const server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: viaProxy.toString(), DATABASE_STARTUP_WAIT_S: '30' });
    procs.push(server);
    expect(proxy.refused()).toBeGreaterThanOrEqual(2);
    expect(server.stdout()).toContain(`database at DATABASE_URL ${viaProxy.toString().replace(/:[^:@/]+@/, ':***@')} does not answer`);
    const orgs = await fetch(`${server.base}/api/v1/organization_detail/`);
    expect(orgs.status).toBe(200);

    // With DATABASE_URL, DATA_DIR is not locked: a second process on the same one starts too.
    const direct = new URL(ADMIN_URL);
    direct.pathname = `/${name}`;
    const second = await startServer({ DATA_DIR: dataDir, DATABASE_URL: direct.toString() });
    procs.push(second);

    for (const proc of [server, second]) {
      proc.child.kill('SIGTERM');
      expect(await exitWithin(proc, 15_000)).toEqual({ code: 0, signal: null });
    }
    expect(server.stderr()).not.toMatch(STACK_LINE);
  }, 90_000);
});
