// Process, port and database helpers for scripts/bench.mjs.
import { fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';

/** A free TCP port on 127.0.0.1 (asked from the OS, then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Child processes started by the bench, so they can all be stopped on exit. */
export class Children {
  /** @type {{ name: string, child: import('node:child_process').ChildProcess, tail: string[] }[]} */
  list = [];
  stopping = false;

  #track(name, child) {
    // Started while the bench is shutting down (a signal arrived mid-start): do not leave it behind.
    if (this.stopping) child.kill('SIGTERM');
    const entry = { name, child, tail: [] };
    const keep = (chunk) => {
      for (const line of String(chunk).split('\n')) if (line.trim()) entry.tail.push(line);
      if (entry.tail.length > 40) entry.tail.splice(0, entry.tail.length - 40);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('exit', (code, signal) => {
      if (!this.stopping) {
        console.error(`\n[bench] ${name} exited unexpectedly (${signal ?? `code ${code}`}); last output:`);
        for (const line of entry.tail) console.error(`  ${line}`);
      }
    });
    this.list.push(entry);
    return entry;
  }

  /** Spawns a process with its output captured (shown only if it dies). */
  spawn(name, command, args, options) {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    return this.#track(name, child);
  }

  /** Forks a Node script with IPC and waits for its { ready, port } message. */
  async fork(name, script, args, options, timeoutMs = 30_000) {
    const child = fork(script, args, { ...options, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const entry = this.#track(name, child);
    const port = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
      child.once('message', (msg) => {
        clearTimeout(timer);
        resolve(msg.port);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with code ${code} before it was ready:\n  ${entry.tail.join('\n  ')}`));
      });
    });
    return { ...entry, port };
  }

  /** SIGTERM to each child (by pid), SIGKILL to any still running after `graceMs`. */
  async stopAll(graceMs = 8_000) {
    this.stopping = true;
    await Promise.all(
      this.list.map(async ({ child }) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
        if (!done) {
          child.kill('SIGKILL');
          await exited;
        }
      }),
    );
  }
}

/** Polls `url` until it answers 200; fails early if `child` exits. */
export async function waitForHttp(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the process serving ${url} exited`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}

/** A throw-away database on the admin URL's server: create() returns its URL, drop() removes it. */
export class BenchDatabase {
  constructor(adminUrl) {
    this.adminUrl = adminUrl;
    this.name = `hb_bench_${randomBytes(5).toString('hex')}`;
    const url = new URL(adminUrl);
    url.pathname = `/${this.name}`;
    this.url = url.toString();
    this.created = false;
  }

  async #admin(sql) {
    const client = new pg.Client({ connectionString: this.adminUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  async create() {
    await this.#admin(`create database "${this.name}"`);
    this.created = true;
    return this.url;
  }

  async drop() {
    if (!this.created) return;
    // FORCE (PostgreSQL 13+) ends sessions a killed child may have left behind.
    await this.#admin(`drop database if exists "${this.name}" with (force)`);
    this.created = false;
  }
}

/** The admin URL with its password hidden, for messages. */
export function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(invalid URL)';
  }
}
