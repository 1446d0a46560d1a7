import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, chmodSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientSocketQuery, type ChatDetails, type ChatTicket } from '@healthbook/shared';
import { TestChatSocket } from '../chat-client';
import { redisReachable } from '../redis';
import { startSmtpSink, type SmtpSink } from '../smtp-sink';
import { freePort, killed, postgresReachable, startServer, waitForHealth, type Proc, type ServerProc } from './support';

/**
 * Two server processes as a deployment runs them (issue 26 §2): one PostgreSQL, one Redis, one
 * S3-compatible store (s3rver), nginx in front balancing round-robin over both (WebSocket
 * upgrades passed through, a dead upstream skipped). What must hold across processes: a file
 * stored through one is read through the other; a sign-out on one ends the session on the other
 * at once; chat messages cross; each reminder is sent once though both run the job; the sign-in
 * rate limit counts requests to both together; and when one process is killed (SIGKILL) under
 * load, requests go on through the other, no acknowledged write is lost, and the chat clients of
 * the dead process reconnect through nginx and carry on.
 *
 * Runs once (in the server project), on the PostgreSQL of TEST_DATABASE_URL (else the local
 * one), in a fresh database; skipped without PostgreSQL, Redis or nginx.
 */

const ADMIN_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DEMO_PASSWORD = 'Healthbook#2026';
const PATIENT = { email: 'patient@healthbook.example', password: DEMO_PASSWORD, org: 'healthbook' };
const COACH = { email: 'coach@healthbook.example', password: DEMO_PASSWORD, org: 'healthbook' };
const AUTH_RATE_LIMIT = 20;
const REMINDERS = 4;
const BUCKET = 'healthbook-files';

/** nginx's binary: on PATH, or in /usr/sbin (not on a normal user's PATH). */
function findNginx(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin', '/usr/local/nginx/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, 'nginx');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

const nginxBin = findNginx();
const missing = [
  !(await postgresReachable(ADMIN_URL)) && `PostgreSQL at ${ADMIN_URL.replace(/:[^:@/]+@/, ':***@')}`,
  !(await redisReachable()) && 'Redis at 127.0.0.1:6379',
  !nginxBin && 'nginx (Debian package nginx)',
].filter((m): m is string => typeof m === 'string');
// Under TEST_DATABASE_URL vitest runs every file twice (server, server-pg); this one needs PostgreSQL either way: once is enough.
const secondRun = process.env.TEST_DB_KIND === 'postgres';
const title = missing.length
  ? `two processes behind nginx (skipped: no ${missing.join(', ')})`
  : secondRun
    ? 'two processes behind nginx (skipped here: it runs once, in the server project)'
    : 'two processes behind nginx';

async function admin(sql: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: Array<{ name: string }> }) => S3rverServer;

/** nginx in front of the two processes: round-robin, WebSocket upgrades, a refused upstream skipped (idempotent or not yet sent). */
function nginxConf(dir: string, port: number, upstreams: number[]) {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream healthbook {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=30s;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 30m;
    location / {
      proxy_pass http://healthbook;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_connect_timeout 2s;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
}

/** A multipart/form-data body with one file part. */
function multipart(filename: string, contentType: string, data: Buffer) {
  const boundary = `----hb${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Session {
  access: string;
  refresh: string;
}

async function login(base: string, who: { email: string; password: string; org: string }): Promise<Session> {
  const res = await fetch(`${base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
  if (res.status !== 200) throw new Error(`sign-in at ${base} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as Session;
}

const auth = (token: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, 'accept-language': 'en', ...extra });

async function api<T>(base: string, token: string, method: string, url: string, body?: object): Promise<{ status: number; json: T }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: auth(token, body ? { 'content-type': 'application/json' } : {}),
    ...(body ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T };
}

/** Waits until `check` answers true (polling), or fails naming `what`. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000, everyMs = 100) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(everyMs);
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
}

/** Waits for the socket's welcome; fails at once, saying why, if the socket closes first. */
async function welcomed(socket: TestChatSocket) {
  const closed = socket.closed.then((c) => Promise.reject(new Error(`the chat socket closed (${c.code} ${c.reason}) before its welcome`)));
  closed.catch(() => undefined);
  await Promise.race([socket.next('welcome', undefined, 15_000), closed]);
}

/** The reminder runs a process has logged (LOG_LEVEL=debug: "scheduled work done", job reminders), with their times. */
function reminderRuns(proc: Proc): Array<{ time: number; sent: number }> {
  return proc
    .stdout()
    .split('\n')
    .filter((line) => line.includes('"job":"reminders"') && line.includes('"result"'))
    .map((line) => JSON.parse(line) as { time: number; result: { sent: number } })
    .map((entry) => ({ time: entry.time, sent: entry.result.sent }));
}

describe.skipIf(missing.length > 0 || secondRun)(title, () => {
  const database = `hb_cluster_${randomBytes(6).toString('hex')}`;
  const cleanups: Array<() => Promise<unknown>> = [];
  let dir: string;
  let sink: SmtpSink;
  let a: ServerProc;
  let b: ServerProc;
  let nginx: Proc;
  let front: string;
  let patient: Session;
  let coach: Session;
  let details: ChatDetails;
  let patientSocket: TestChatSocket;
  let coachSocket: TestChatSocket;
  let remindersDueAt: number;

  /** A query on the test's database itself (what is stored, whatever the processes answered). */
  async function inDatabase<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<R[]> {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hb-cluster-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await admin(`CREATE DATABASE "${database}"`);
    cleanups.push(async () => {
      await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
      await admin(`DROP DATABASE IF EXISTS "${database}"`);
    });
    const databaseUrl = new URL(ADMIN_URL);
    databaseUrl.pathname = `/${database}`;

    const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;
    const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(dir, 's3rver'), configureBuckets: [{ name: BUCKET }] });
    const { port: s3Port } = await s3.run();
    cleanups.push(() => s3.close());
    sink = await startSmtpSink();
    cleanups.push(() => sink.close());

    const nginxPort = await freePort();
    front = `http://127.0.0.1:${nginxPort}`;
    // A Redis database of its own (pub/sub is shared by all of them; keys are not): the rate-limit counters start at nothing.
    const redisDb = 1 + Math.floor(Math.random() * 15);
    // Counters an earlier run left there (they expire within a minute) would shorten this run's window.
    const redis = new Redis({ host: '127.0.0.1', port: 6379, db: redisDb });
    const stale = await redis.keys('healthbook-rl-*');
    if (stale.length) await redis.del(...stale);
    redis.disconnect();
    // Each process its own DATA_DIR (nothing shared through the disk); the same secret signs both's tokens.
    const shared = {
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: `redis://127.0.0.1:6379/${redisDb}`,
      STORAGE_URL: `s3://S3RVER:S3RVER@${BUCKET}?endpoint=${encodeURIComponent(`http://127.0.0.1:${s3Port}`)}&region=us-east-1&path_style=true`,
      SMTP_URL: sink.url,
      PUBLIC_URL: front,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      AUTH_RATE_LIMIT: String(AUTH_RATE_LIMIT),
      // Debug: the scheduler logs each run's result (how many reminders this process sent).
      LOG_LEVEL: 'debug',
    };
    // A migrates the fresh database and seeds the demo; B starts once that is done.
    a = await startServer({ ...shared, DATA_DIR: path.join(dir, 'a') }, 90_000);
    cleanups.push(() => killed(a));

    // Reminders falling due before B starts (the demo patient's events, reminders 15 minutes before):
    // B's scheduler runs at once, A's within 30 s; each reminder must go out once.
    patient = await login(a.base, PATIENT);
    for (let i = 0; i < REMINDERS; i++) {
      // A reminder is made only while it is still to come: each falls due a few seconds after it is made.
      remindersDueAt = Date.now() + 3000;
      const start = remindersDueAt + 15 * 60_000;
      const res = await api(a.base, patient.access, 'POST', '/api/v1/calendar/events/', {
        title: `Cluster dose ${i}`,
        type: 'Medicine',
        start_time: new Date(start).toISOString(),
        end_time: new Date(start + 60_000).toISOString(),
        reminder_minutes: 15,
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
    }

    await until('the reminders are due', () => Date.now() > remindersDueAt + 50, 10_000, 50);
    b = await startServer({ ...shared, DATA_DIR: path.join(dir, 'b') }, 90_000);
    cleanups.push(() => killed(b));

    const nginxDir = path.join(dir, 'nginx');
    await mkdir(nginxDir);
    // Workers may run as nobody (nginx started by root): they need to reach and write their temporary directories.
    chmodSync(dir, 0o755);
    chmodSync(nginxDir, 0o777);
    await writeFile(path.join(nginxDir, 'nginx.conf'), nginxConf(nginxDir, nginxPort, [a.port, b.port]));
    nginx = runNginx(nginxDir);
    cleanups.push(async () => {
      // SIGTERM: the master stops its workers too (SIGKILL would leave them running, holding the output open).
      if (nginx.child.exitCode === null && nginx.child.signalCode === null) nginx.child.kill('SIGTERM');
      await nginx.exited;
    });
    await waitForHealth(nginx, front, 30_000);
  }, 240_000);

  function runNginx(nginxDir: string): Proc {
    const child = spawn(nginxBin!, ['-p', nginxDir, '-e', 'stderr', '-c', path.join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    return { child, stdout: () => out, stderr: () => err, exited };
  }

  afterAll(async () => {
    patientSocket?.close();
    coachSocket?.close();
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }, 60_000);

  it('nginx balances over both processes', async () => {
    // Round-robin: consecutive requests through nginx are answered by both (the metrics-free way: each process's own log).
    const before = [a.stdout().length, b.stdout().length];
    for (let i = 0; i < 6; i++) expect((await fetch(`${front}/api/health`)).status).toBe(200);
    await until('both processes answered', () => a.stdout().slice(before[0]).includes('/api/health') && b.stdout().slice(before[1]).includes('/api/health'), 5000);
  });

  it('a file uploaded through A is downloaded through B (one S3 store, no local copy)', async () => {
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 100 100]>>endobj\n' +
        'xref\n0 4\n0000000000 65535 f \n0000000009 00000 n \n0000000052 00000 n \n0000000101 00000 n \ntrailer<</Size 4/Root 1 0 R>>\nstartxref\n170\n%%EOF\n',
    );
    const { body, contentType } = multipart('cluster.pdf', 'application/pdf', pdf);
    const up = await fetch(`${a.base}/api/v1/documents/`, { method: 'POST', headers: auth(patient.access, { 'content-type': contentType }), body });
    const text = await up.text();
    expect(up.status, text).toBe(201);
    const doc = JSON.parse(text) as { id: number };
    const download = async (base: string) => {
      const res = await fetch(`${base}/api/v1/documents/${doc.id}/file/?download=1`, { headers: auth(patient.access) });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const fromA = await download(a.base);
    const fromB = await download(b.base);
    expect(fromA.length).toBeGreaterThan(0);
    expect(fromB.equals(fromA)).toBe(true);
    expect(fromB.equals(pdf)).toBe(true);
  });

  it('a sign-out on A ends the session on B at once', async () => {
    // Several rounds: a race between the sign-out's answer and B hearing of it would show in one of them.
    for (let round = 0; round < 5; round++) {
      const session = await login(round % 2 ? b.base : a.base, PATIENT);
      // B has the session in its cache (it answered with it).
      expect((await api(b.base, session.access, 'GET', '/api/v1/me/')).status).toBe(200);
      expect((await api(a.base, session.access, 'GET', '/api/v1/me/')).status).toBe(200);
      const out = await fetch(`${a.base}/api/v1/logout/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh: session.refresh }) });
      expect(out.status).toBe(204);
      expect((await api(b.base, session.access, 'GET', '/api/v1/me/')).status, `round ${round}`).toBe(401);
      expect((await api(a.base, session.access, 'GET', '/api/v1/me/')).status).toBe(401);
    }
  });

  it('chat messages cross: the patient on A, the coach on B', async () => {
    coach = await login(b.base, COACH);
    const ticket = async (base: string, who: Session) => {
      const res = await api<ChatTicket>(base, who.access, 'POST', '/api/v1/chat/ticket/');
      expect(res.status).toBe(200);
      return res.json.ticket;
    };
    coachSocket = TestChatSocket.open(b.base, { ticket: await ticket(b.base, coach), userId: (await api<{ user_id: number }>(b.base, coach.access, 'GET', '/api/v1/me/')).json.user_id, isPatient: false, orgName: 'healthbook' });
    await welcomed(coachSocket);
    const joined = await api<ChatDetails>(a.base, patient.access, 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress' });
    expect([200, 201]).toContain(joined.status);
    details = joined.json;
    patientSocket = TestChatSocket.open(a.base, { ticket: await ticket(a.base, patient), ...patientSocketQuery(details) });
    await welcomed(patientSocket);
    await coachSocket.next('queue', (q) => q.queue.some((e) => e.conversation_id === details.conversation_id), 15_000);
    expect((await api(b.base, coach.access, 'POST', '/api/v1/chat/queue/take/', { conversation_id: details.conversation_id })).status).toBe(200);
    await patientSocket.next('message', (m) => m.kind === 'greeting', 15_000);
    patientSocket.send({ action: 'sendMessage', Msg: 'from the patient on A' });
    await coachSocket.next('message', (m) => m.Message === 'from the patient on A', 15_000);
    coachSocket.send({ action: 'sendMessage', Msg: 'from the coach on B', conversationId: details.conversation_id });
    await patientSocket.next('message', (m) => m.Message === 'from the coach on B', 15_000);
  });

  it('the sign-in rate limit counts the requests to both processes together', async () => {
    // Failed sign-ins (unknown accounts, so no account's own lock-out comes into it), alternately on A and B.
    const attempt = (i: number) =>
      fetch(`${i % 2 ? b.base : a.base}/api/v1/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `nobody-${i}-${randomBytes(3).toString('hex')}@cluster.example`, password: 'wrong-password', org: 'healthbook' }),
      });
    let first = await attempt(0);
    // The window is one minute from its first request: start well inside one, so it cannot roll over half-way.
    const resetIn = Number(first.headers.get('x-ratelimit-reset'));
    if (first.status !== 401 || resetIn < 20) {
      await sleep((resetIn + 1) * 1000);
      first = await attempt(0);
    }
    expect(first.status).toBe(401);
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    expect(Number(first.headers.get('x-ratelimit-limit'))).toBe(AUTH_RATE_LIMIT);
    // Sign-ins earlier in this test count too; one process alone would refuse at the same total.
    expect(remaining).toBeLessThan(AUTH_RATE_LIMIT);
    const seen: number[] = [];
    for (let i = 1; i <= remaining + 1; i++) {
      const res = await attempt(i);
      seen.push(res.status);
      if (i <= remaining) expect(Number(res.headers.get('x-ratelimit-remaining')), `attempt ${i}`).toBe(remaining - i);
    }
    expect(seen.slice(0, remaining).every((s) => s === 401)).toBe(true);
    expect(seen.at(-1)).toBe(429);
    // Both processes refuse now.
    expect((await attempt(remaining + 2)).status).toBe(429);
    expect((await attempt(remaining + 3)).status).toBe(429);
  });

  it('SIGKILL of B under load: requests go on through A, no acknowledged write is lost, the chat reconnects', async () => {
    const runId = randomBytes(4).toString('hex');
    const results: Array<{ kind: 'read' | 'write'; ok: boolean; status: number | string; title?: string; at: number }> = [];
    let stop = false;
    let killedAt = 0;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const write = i % 2 === 0;
        const title = `load ${runId} ${n}-${i}`;
        const at = Date.now();
        try {
          const res = write
            ? await fetch(`${front}/api/v1/journal/`, {
                method: 'POST',
                headers: auth(patient.access, { 'content-type': 'application/json' }),
                body: JSON.stringify({ entry_date: '2026-11-27', title, text: 'written under load' }),
                signal: AbortSignal.timeout(15_000),
              })
            : await fetch(`${front}/api/v1/journal/?page_size=5`, { headers: auth(patient.access), signal: AbortSignal.timeout(15_000) });
          await res.arrayBuffer();
          results.push({ kind: write ? 'write' : 'read', ok: res.ok, status: res.status, title, at });
        } catch (err) {
          results.push({ kind: write ? 'write' : 'read', ok: false, status: (err as Error).name, title, at });
        }
      }
    };
    const clients = [client(0), client(1)];
    // Steady load first, then the kill.
    const loadStart = Date.now();
    await until('load running', () => Date.now() - loadStart > 1500 && results.filter((r) => r.ok).length >= 20, 20_000, 20);
    const coachClosed = coachSocket.closed;
    b.child.kill('SIGKILL');
    killedAt = Date.now();
    await b.exited;
    // A killed process still accepts connections until the kernel has torn it down (its memory first, then its
    // sockets): what was sent to it until then is in flight at the kill.
    const goneAt = Date.now();

    // The coach's socket was on B: it closes; the client reconnects through nginx (to the survivor) with a new ticket.
    await coachClosed;
    const ticket = await api<ChatTicket>(front, coach.access, 'POST', '/api/v1/chat/ticket/');
    expect(ticket.status).toBe(200);
    const coachId = (await api<{ user_id: number }>(front, coach.access, 'GET', '/api/v1/me/')).json.user_id;
    coachSocket = TestChatSocket.open(front, { ticket: ticket.json.ticket, userId: coachId, isPatient: false, orgName: 'healthbook' });
    await welcomed(coachSocket);
    const reconnectMs = Date.now() - killedAt;
    coachSocket.send({ action: 'sendMessage', Msg: 'the coach is back', conversationId: details.conversation_id });
    await patientSocket.next('message', (m) => m.Message === 'the coach is back', 15_000);
    patientSocket.send({ action: 'sendMessage', Msg: 'the patient hears you' });
    await coachSocket.next('message', (m) => m.Message === 'the patient hears you', 15_000);

    // Load goes on for a while after the kill, through A alone.
    await until('load after the kill', () => Date.now() - killedAt > 3000 && results.filter((r) => r.at > killedAt + 500 && r.ok).length >= 20, 30_000, 20);
    stop = true;
    await Promise.all(clients);

    const failed = results.filter((r) => !r.ok);
    const after = results.filter((r) => r.at > goneAt);
    const acknowledged = results.filter((r) => r.kind === 'write' && r.ok).map((r) => r.title!);
    const stored = new Set((await inDatabase<{ title: string }>('SELECT title FROM journal_entries WHERE title LIKE $1', [`load ${runId} %`])).map((r) => r.title));
    const lost = acknowledged.filter((t) => !stored.has(t));
    console.log(
      `[cluster] requests ${results.length} (${after.length} after it was gone), failed ${failed.length} ${JSON.stringify(failed.map((f) => `${f.kind} ${f.status} at kill+${f.at - killedAt} ms`))}, B gone ${goneAt - killedAt} ms after SIGKILL, ` +
        `acknowledged writes ${acknowledged.length}, lost ${lost.length}; the coach's chat reconnected ${reconnectMs} ms after the kill`,
    );
    expect(lost).toEqual([]);
    // Only what was in flight at the kill may fail: at most one request per client.
    expect(failed.length).toBeLessThanOrEqual(clients.length);
    for (const f of failed) expect(f.at, nginx.stderr()).toBeLessThanOrEqual(goneAt);
    // And every request after the kill is answered.
    expect(after.every((r) => r.ok)).toBe(true);
  }, 90_000);

  it('each reminder was sent once, though both processes ran the job', async () => {
    // A's scheduler runs every 30 s: wait for a run of A that began after the reminders were due (B's ran at its start).
    await until(
      "a reminder run of A's after the reminders were due",
      () => reminderRuns(a).some((r) => r.time > remindersDueAt),
      45_000,
      250,
    );
    const runs = [...reminderRuns(a), ...reminderRuns(b)];
    const doses = sink.messages.filter((m) => m.envelope.to.includes(PATIENT.email) && /Cluster dose/.test(m.subject));
    expect(doses.map((m) => m.subject).sort()).toEqual(Array.from({ length: REMINDERS }, (_, i) => expect.stringContaining(`Cluster dose ${i}`)));
    expect(new Set(doses.map((m) => m.subject)).size).toBe(REMINDERS);
    // The processes' own count agrees with every reminder that arrived (the demo's own, should one fall due, included).
    const reminderMails = sink.messages.filter((m) => /^(Reminder|Υπενθύμιση):/.test(m.subject));
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(reminderMails.length);
    expect(reminderRuns(b).length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
