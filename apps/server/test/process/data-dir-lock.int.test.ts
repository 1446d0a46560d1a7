import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, killed, run, serverRoot, signIn, startServer, type ServerProc } from './support';

/**
 * One process owns an embedded DATA_DIR. Real processes: a second server or a CLI command on the
 * same directory is refused while the first serves on; after kill -9 the next one starts at once
 * (the OS dropped the lock) and finds every write the dead one acknowledged.
 */

const IN_USE = 75;
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const refusal = (dir: string, pid: number) =>
  new RegExp(
    `^DATA_DIR ${literally(dir)} is in use by process ${pid} on host ${literally(os.hostname())} ` +
      'since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z; one process owns an embedded database\\. ' +
      'Stop it, or use DATABASE_URL to run several processes\\.\\n$',
  );

describe.skipIf(process.env.TEST_DB_KIND === 'postgres')('an embedded DATA_DIR has one owner', () => {
  let dataDir: string;
  let first: ServerProc | undefined;
  let second: ServerProc | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'hb-owner-'));
    first = await startServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await killed(first);
    await killed(second);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses a second server with one line naming the directory and the holder, exit 75; the first serves on', async () => {
    const token = await signIn(first!.base);
    const other = run('server', [], { DATA_DIR: dataDir, PORT: '0' });
    const { code } = await exitWithin(other, 30_000);
    expect(other.stderr()).toMatch(refusal(dataDir, first!.child.pid!));
    expect(other.stdout()).toBe('');
    expect(code).toBe(IN_USE);

    // The first one did not notice: same session, same data.
    const res = await fetch(`${first!.base}/api/v1/admin/invitations/`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
  });

  it('hands a CLI command to the server that holds DATA_DIR (it never opens the database itself); the server serves on', async () => {
    const cli = run('cli', ['migrate'], { DATA_DIR: dataDir });
    const { code } = await exitWithin(cli, 30_000);
    expect(cli.stdout()).toBe('the schema is up to date\n');
    expect(cli.stderr()).toBe('');
    expect(code).toBe(0);
    expect((await fetch(`${first!.base}/api/health`)).status).toBe(200);
  });

  it('refuses the CLI with the holder named, exit 75, when the holder offers no operator channel', async () => {
    const other = await mkdtemp(path.join(os.tmpdir(), 'hb-holder-'));
    // A process that only holds the lock (as a CLI command in progress does).
    const holder = spawn(
      process.execPath,
      ['--import', 'tsx', '-e', "const m = await import('./src/db/data-dir-lock.ts'); m.lockDataDir(process.env.LOCK_DIR); console.log('locked'); setInterval(() => {}, 1000);"],
      { cwd: serverRoot, env: { PATH: process.env.PATH, HOME: process.env.HOME, LOCK_DIR: other } },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
        holder.on('exit', (c) => reject(new Error(`the lock holder exited (${c})`)));
      });
      const cli = run('cli', ['migrate'], { DATA_DIR: other });
      const { code } = await exitWithin(cli, 30_000);
      expect(cli.stderr()).toMatch(refusal(other, holder.pid!));
      expect(code).toBe(IN_USE);
    } finally {
      holder.kill('SIGKILL');
      await rm(other, { recursive: true, force: true });
    }
  });

  it('after kill -9 mid-writes, starts again at once on the same DATA_DIR with every acknowledged write', async () => {
    const { base } = first!;
    const token = await signIn(base);
    const acknowledged: number[] = [];
    let n = 0;
    let dead = false;
    const invite = async () => {
      const i = n++;
      const res = await fetch(`${base}/api/v1/admin/invitations/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Crash', last_name: `Test${i}`, dob: '1990-01-01', gender: 'female', email: `crash${i}@example.test` }),
      });
      const body = (await res.json()) as { id: number };
      if (res.status !== 201) throw new Error(`invitation ${i}: ${res.status} ${JSON.stringify(body)}`);
      acknowledged.push(body.id);
    };
    // Eight clients in a loop, until the server is killed under them.
    const clients = Array.from({ length: 8 }, async () => {
      while (!dead) {
        try {
          await invite();
        } catch (err) {
          if (!dead) throw err;
        }
      }
    });
    while (acknowledged.length < 40) await sleep(10);
    const pid = first!.child.pid!;
    first!.child.kill('SIGKILL');
    dead = true;
    await first!.exited;
    await Promise.all(clients);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);
    // The lock file still names the dead holder: only the OS lock counts, and the OS dropped it.
    expect(JSON.parse(readFileSync(path.join(dataDir, 'lock'), 'utf8')).pid).toBe(pid);

    // Not refused, and no waiting for a stale lock to expire.
    second = await startServer({ DATA_DIR: dataDir });
    expect(JSON.parse(readFileSync(path.join(dataDir, 'lock'), 'utf8')).pid).toBe(second.child.pid);

    const res = await fetch(`${second.base}/api/v1/admin/invitations/`, { headers: { authorization: `Bearer ${await signIn(second.base)}` } });
    expect(res.status).toBe(200);
    const listed = new Set(((await res.json()) as { id: number }[]).map((inv) => inv.id));
    expect(acknowledged.filter((id) => !listed.has(id))).toEqual([]);
  }, 120_000);
});
