import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

/**
 * The server and the CLI as real child processes (through tsx, from source: nothing needs building),
 * for what only a process shows: signals, exit codes, locks, kill -9.
 */

export const serverRoot = path.resolve(import.meta.dirname, '../..');

export const DEMO_ADMIN = { email: 'admin@healthbook.example', password: 'Healthbook#2026', org: 'healthbook' };

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Proc {
  child: ChildProcessWithoutNullStreams;
  /** Everything written to stdout and stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited (at once if it already has). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerProc extends Proc {
  port: number;
  base: string;
}

/** A small environment: nothing of the caller's (DATABASE_URL, SMTP_URL, …) leaks in unless given. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ...env,
  };
}

/** Runs `src/<entry>.ts` with the given arguments and environment. */
export function run(entry: 'server' | 'cli', args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverRoot, `src/${entry}.ts`), ...args], {
    cwd: serverRoot,
    env: childEnv(env),
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Starts a server on a free port and waits until GET /api/health answers 200. */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProc> {
  const port = await freePort();
  const proc = run('server', [], { PORT: String(port), ...env });
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(proc, base, timeoutMs);
  return { ...proc, port, base };
}

/** Polls GET /api/health until 200; fails at once, with the process's output, if it exits first. */
export async function waitForHealth(proc: Proc, base: string, timeoutMs = 60_000): Promise<void> {
  let gone = false;
  void proc.exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) {
      const { code, signal } = await proc.exited;
      throw new Error(`the server exited (${signal ?? `code ${code}`}) before it was ready:\n${proc.stdout()}\n${proc.stderr()}`);
    }
    const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${base}/api/health did not answer 200 within ${timeoutMs / 1000} s:\n${proc.stdout()}\n${proc.stderr()}`);
}

/** Waits for the process to exit, or fails after `timeoutMs` (and kills it, so nothing is left behind). */
export async function exitWithin(proc: Proc, timeoutMs: number) {
  const timer = sleep(timeoutMs).then(() => 'timeout' as const);
  const result = await Promise.race([proc.exited, timer]);
  if (result === 'timeout') {
    proc.child.kill('SIGKILL');
    throw new Error(`the process did not exit within ${timeoutMs / 1000} s:\n${proc.stdout()}\n${proc.stderr()}`);
  }
  return result;
}

/** Kills the process if it still runs and waits for it to be gone (for afterEach/afterAll). */
export async function killed(proc: Proc | undefined) {
  if (!proc || proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill('SIGKILL');
  await proc.exited;
}

/** Signs in through the API; answers the access token. */
export async function signIn(base: string, user = DEMO_ADMIN): Promise<string> {
  const res = await fetch(`${base}/api/v1/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(user),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access: string }).access;
}

/** Whether a PostgreSQL server answers at `url` within 2 s (tests that need one skip without it). */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
