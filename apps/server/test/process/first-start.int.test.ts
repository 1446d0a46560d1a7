// On PostgreSQL too (vitest.config.ts): a production first start on each database.
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelPath } from '../../src/operator/channel';
import { openFreshDatabase, testDbKind } from '../build-app';
import { exitWithin, freePort, killed, run, waitForHealth, type ServerProc } from './support';

/**
 * A real installation's first start, as an operator does it: the server in production mode on an
 * empty database says what to run next; create-organisation and create-admin run through the CLI
 * while it serves (on PGlite the server that holds DATA_DIR carries them out over its operator
 * socket; on PostgreSQL the CLI uses the database itself); the printed link sets the password,
 * and the super admin signs in through the API.
 */
describe('first start of a real installation (server and CLI as processes)', () => {
  let dataDir: string;
  let server: ServerProc | undefined;
  let env: Record<string, string>;
  let drop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'hb-first-'));
    const port = await freePort();
    env = { DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'info', PUBLIC_URL: `http://127.0.0.1:${port}` };
    if (testDbKind() === 'postgres') {
      const fresh = await openFreshDatabase();
      await fresh.db.destroy();
      env.DATABASE_URL = fresh.url!;
      drop = fresh.drop;
    }
    const proc = run('server', [], { ...env, PORT: String(port) });
    server = { ...proc, port, base: `http://127.0.0.1:${port}` };
    await waitForHealth(proc, server.base, 60_000);
  }, 90_000);
  afterAll(async () => {
    await killed(server);
    await drop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  const cli = async (args: string[]) => {
    const proc = run('cli', args, env);
    const { code } = await exitWithin(proc, 60_000);
    return { code, out: proc.stdout(), err: proc.stderr() };
  };

  it('says, in one log line, what to run next on an empty database', async () => {
    const hintLines = () => server!.stdout().split('\n').filter((l) => l.includes('create-organisation'));
    // Logged just after the server starts listening.
    for (let i = 0; i < 100 && hintLines().length === 0; i++) await sleep(100);
    await sleep(200);
    const lines = hintLines();
    expect(lines).toHaveLength(1);
    // Without TURN_URLS, video visits are peer to peer only: the ready line says so, and production warns.
    expect(server!.stdout()).toContain('"video":"peer to peer only"');
    expect(server!.stdout()).toContain('TURN_URLS has no turn: server in production');
    expect(JSON.parse(lines[0]!).msg).toBe(
      'This installation has no organisation and no administrator yet. Next, while it runs: npm run cli -- create-organisation --client-id <id> --name "<name>", then npm run cli -- create-admin --email <address> --first-name <name> --last-name <name> (it e-mails a set-password link, and prints it while SMTP_URL is unset).',
    );
  });

  it('makes the organisation and the super admin while the server runs; the printed link sets the password; the admin signs in', async () => {
    const org = await cli(['create-organisation', '--client-id', 'acme', '--name', 'Acme Health']);
    expect(org.err).toBe('');
    expect(org.code).toBe(0);
    expect(org.out).toContain(`Organisation Acme Health (client id acme`);
    // The organisation is served at once.
    const branding = await fetch(`${server!.base}/api/v1/organization_detail_by_name/acme`);
    expect(((await branding.json()) as { org_name: string }).org_name).toBe('Acme Health');

    const admin = await cli(['create-admin', '--email', 'ops@acme.example', '--first-name', 'Olga', '--last-name', 'Ops']);
    expect(admin.err).toBe('');
    expect(admin.code).toBe(0);
    expect(admin.out).toContain('Super admin Olga Ops <ops@acme.example> created in Acme Health (acme).');
    const m = /(http:\/\/\S+)\/acme\/password\/set\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)/.exec(admin.out);
    expect(m, admin.out).not.toBeNull();
    expect(m![1]).toBe(server!.base);

    const set = await fetch(`${server!.base}/api/v1/account_setup/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uid: m![2], token: m![3], password: 'Ops-First#2026' }),
    });
    expect(set.status).toBe(200);
    const login = await fetch(`${server!.base}/api/v1/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@acme.example', password: 'Ops-First#2026', org: 'acme' }),
    });
    expect(login.status).toBe(200);
    const me = await fetch(`${server!.base}/api/v1/me/`, { headers: { authorization: `Bearer ${((await login.json()) as { access: string }).access}` } });
    expect(((await me.json()) as { is_superadmin: boolean }).is_superadmin).toBe(true);
  }, 120_000);

  it.skipIf(testDbKind() === 'postgres')("the operator channel is a socket only DATA_DIR's owner can open (0600, in a 0700 directory)", () => {
    const socket = statSync(channelPath(dataDir));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(channelPath(dataDir))).mode & 0o777).toBe(0o700);
  });
});
