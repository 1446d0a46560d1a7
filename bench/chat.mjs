// The live chat's part of `npm run bench` (issue: "1,000 concurrent connections (500 patient–provider
// pairs) exchanging messages for 10 s: p99 relay latency under 50 ms, reported beside a bare `ws` echo
// server in the same run; the time of a 5,242,880-byte chunked transfer beside the same bytes over the
// bare server; both on one process and across two processes with Redis").
//
// Each scenario runs against one of four servers:
//   bare    bench/chat-baseline.mjs: a plain `ws` relay, same frames, no ticket, database or checks
//   one     the real server the bench started (no Redis: its in-process bus)
//   bare2   two bare relays joined by Redis pub/sub (patients on the first, coaches on the second)
//   two     two real server processes on the bench's database and one Redis (REDIS_URL), patients on
//           process A, coaches on process B: every message crosses Redis
//
// Setup (real servers): BENCH_CHAT_PAIRS patients and as many peer coaches are inserted into the
// server's own tables (createChatUsers) and sign in through POST /api/v1/login/; then, per scenario,
// each patient joins the queue (REST) and opens the socket with a ticket, each coach takes their
// patient (REST) and opens the staff socket; afterwards every patient ends the chat (endChat), so the
// next scenario starts from an empty queue with the same accounts.
//
// Load: BENCH_CHAT_PAIRS pairs (2 x pairs sockets). Each socket sends BENCH_CHAT_RATE text messages a
// second (default 1: 1,000 messages a second in all, a message a second from every person, about ten
// times a person's pace in a chat) to the other side of its pair: an open loop at a fixed rate, each socket at its
// own random phase, the same for the bare relay. (Not a closed loop: the server allows a socket 5
// messages a second after a burst of 20, and a ping-pong as fast as the relay answers would measure
// its `rateLimited` refusals.) BENCH_WARMUP s are not counted, then BENCH_DURATION s are measured.
// Relay latency: from just before the sender's ws.send to the moment the other side's socket hands
// the event over, on this process's clock; msg/s: deliveries received within the measured window.
// Every message is tracked by its clientMessageId and must be acknowledged to its sender and
// delivered to the other side exactly once: after the load the bench waits while the backlog keeps
// arriving (up to 30 s), then counts lost (neither delivered nor refused), duplicated, misrouted and
// refused ones (an error event naming the message), and sockets the server closed.

import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import pg from 'pg';
import WebSocket from 'ws';

// packages/shared/src/chat.ts (the bench is plain JavaScript and does not import the TypeScript source).
const CHAT_SLICE_CHARS = 32_000;
const CHAT_FILE_MAX_BYTES = 5_242_880;
const CHAT_SOCKET_PATH = '/api/v1/chat/socket/';
/**
 * The bench users' one password hash: argon2id (algorithm 2), as apps/server/src/lib/passwords.ts
 * makes them, but at m = 1 MiB, t = 1 instead of the server's m = 19 MiB, t = 2. The server verifies
 * whatever parameters a stored hash names, so each sign-in still goes through the real route (the
 * hash verified, the attempt counted, a session made, audited), without a thousand 19 MiB hashes
 * (~20-40 ms of a core each) in the chat part's setup; the sign-in target measures those.
 */
const ARGON2_PARAMS = { algorithm: 2, memoryCost: 1_024, timeCost: 1, parallelism: 1 };

const BENCH_ORG = 'chatbench';
const PASSWORD = 'Chat-Bench#2026';
const RELAY_P99_GOAL_MS = 50;
const TRANSFER_ROUNDS = 3;
/** After the load: wait for what is still on its way while it keeps arriving (no progress for DRAIN_IDLE_MS: stop), at most DRAIN_MAX_MS. */
const DRAIN_IDLE_MS = 3_000;
const DRAIN_MAX_MS = 30_000;

export function numberFromEnv(name, fallback, { min = 0, integer = false } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n))) throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} ≥ ${min}, got "${raw}"`);
  return n;
}

/** The chat part's settings, read once (scripts/bench.mjs passes the duration and warm-up). */
export function chatSettings() {
  const redis = (process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? '').trim() || 'redis://127.0.0.1:6379';
  return {
    pairs: numberFromEnv('BENCH_CHAT_PAIRS', 500, { min: 1, integer: true }),
    rate: numberFromEnv('BENCH_CHAT_RATE', 1, { min: 0.1 }),
    budgetS: numberFromEnv('BENCH_CHAT_BUDGET', 180, { min: 10 }),
    redisUrl: redis.toLowerCase() === 'off' ? null : redis,
  };
}

// ---------------------------------------------------------------- the scenarios, in the order they are reported
const RELAY = 'chat relay';
const FILE = 'chat 5 MB file';
export const SERVERS = {
  bare: 'bare ws',
  one: '1 process',
  bare2: 'bare ws x2 + Redis',
  two: '2 processes + Redis',
};
/** The rows the chat part can report; the real server's rows compare with the bare relay on the same number of processes. */
/** The order servers run in: the (quick) baselines first, so that a tight budget skips a real scenario, never its baseline. */
const RUN_ORDER = ['bare', 'bare2', 'one', 'two'];
export const chatScenarios = [
  { name: `${RELAY}: ${SERVERS.bare}`, kind: 'relay', server: 'bare' },
  { name: `${FILE}: ${SERVERS.bare}`, kind: 'file', server: 'bare' },
  { name: `${RELAY}: ${SERVERS.one}`, kind: 'relay', server: 'one', baseline: `${RELAY}: ${SERVERS.bare}`, maxP99Ms: RELAY_P99_GOAL_MS },
  { name: `${FILE}: ${SERVERS.one}`, kind: 'file', server: 'one', baseline: `${FILE}: ${SERVERS.bare}` },
  { name: `${RELAY}: ${SERVERS.bare2}`, kind: 'relay', server: 'bare2' },
  { name: `${FILE}: ${SERVERS.bare2}`, kind: 'file', server: 'bare2' },
  { name: `${RELAY}: ${SERVERS.two}`, kind: 'relay', server: 'two', baseline: `${RELAY}: ${SERVERS.bare2}`, maxP99Ms: RELAY_P99_GOAL_MS },
  { name: `${FILE}: ${SERVERS.two}`, kind: 'file', server: 'two', baseline: `${FILE}: ${SERVERS.bare2}` },
];

// ---------------------------------------------------------------- small helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

/** Runs `fn` over `items`, at most `limit` at a time; answers the results in order. */
export async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function api(base, token, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/** Nearest-rank percentile of sorted values. */
export const percentile = (sorted, p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const round1 = (n) => Math.round(n * 10) / 10;
/** Mean, p50, p95, p99 and max of sorted latencies, in ms to a tenth. */
export const latencySummary = (sorted) => ({
  mean: round1(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
  p50: round1(percentile(sorted, 50)),
  p95: round1(percentile(sorted, 95)),
  p99: round1(percentile(sorted, 99)),
  max: round1(sorted.at(-1) ?? 0),
});

/** A socket as the bench drives it: events are parsed once and handed to waiters, then to the handler. */
export class BenchSocket {
  /** @type {Array<{ match: (e: any) => boolean, resolve: (v: { event: any, at: number }) => void }>} */
  waiters = [];
  /** Events nobody waited for, while no handler is set (a few, for waitFor). */
  backlog = [];
  /** @type {((event: any, at: number) => void) | null} */
  handler = null;
  closedCode = null;

  constructor(url) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.ws.on('error', () => undefined); // surfaces as a close
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: HTTP ${res.statusCode}`)));
      this.ws.once('close', (code, reason) => reject(new Error(`closed before opening: ${code} ${reason}`)));
    });
    this.opened.catch(() => undefined);
    this.closed = new Promise((resolve) =>
      this.ws.on('close', (code, reason) => {
        this.closedCode = code;
        resolve({ code, reason: String(reason) });
      }),
    );
    this.ws.on('message', (data) => {
      const at = now();
      let event;
      try {
        event = JSON.parse(data.toString());
      } catch {
        return;
      }
      const waiter = this.waiters.find((w) => w.match(event));
      if (waiter) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve({ event, at });
        return;
      }
      if (this.handler) this.handler(event, at);
      else if (this.backlog.length < 2_000) this.backlog.push({ event, at });
    });
  }

  /** The first event (already received or to come) that matches, within `ms`; fails early if the socket closes. */
  waitFor(match, ms, what) {
    const at = this.backlog.findIndex((b) => match(b.event));
    if (at >= 0) return Promise.resolve(this.backlog.splice(at, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no ${what} within ${ms} ms`));
      }, ms);
      this.waiters.push(waiter);
      void this.closed.then(({ code, reason }) => {
        if (!this.waiters.includes(waiter)) return;
        clearTimeout(timer);
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`socket closed (${code} ${reason}) while waiting for ${what}`));
      });
    });
  }

  send(frame) {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  async close() {
    if (this.closedCode !== null) return;
    this.ws.close();
    await Promise.race([this.closed, sleep(3_000)]);
    if (this.closedCode === null) this.ws.terminate();
  }
}

export const wsBase = (httpBase) => httpBase.replace(/^http/, 'ws');
export const query = (params) =>
  Object.entries(params)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

// ---------------------------------------------------------------- CPU accounting (Linux /proc; evidence for a slow run)
const TICKS_PER_S = 100; // USER_HZ on Linux
function procTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return null;
  }
}
/** CPU ticks of every process whose name is `comm` (PostgreSQL's backends, redis-server), by pid. */
function ticksByName(comm) {
  const ticks = new Map();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (name !== comm && !name.startsWith(`${comm}:`)) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ticks.set(entry, Number(fields[11]) + Number(fields[12]));
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    return null;
  }
  return ticks.size ? ticks : null;
}
/** Ticks used between two readings: by processes seen both times, plus all of those started since (those that ended are not counted). */
function ticksBetween(before, after) {
  if (!before || !after) return null;
  let total = 0;
  for (const [pid, t] of after) total += t - (before.get(pid) ?? 0);
  return total;
}
function machineTicks() {
  try {
    const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const n = values.map(Number);
    return { busy: n[0] + n[1] + n[2] + n[5] + n[6] + n[7], all: n.reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}
/** Starts counting; stop() answers the % of one core each used meanwhile (null where unknown). */
export function cpuMeter(serverPids) {
  const startedAt = now();
  const client = process.cpuUsage();
  const servers = serverPids.map(procTicks);
  const postgres = ticksByName('postgres');
  const redis = ticksByName('redis-server');
  const machine = machineTicks();
  return () => {
    const seconds = (now() - startedAt) / 1000;
    const pct = (ticks) => Math.round((ticks / TICKS_PER_S / seconds) * 100);
    const used = process.cpuUsage(client);
    const m = machineTicks();
    const diff = (a, b) => (a === null || b === null ? null : pct(b - a));
    const byName = (before, comm) => {
      const ticks = ticksBetween(before, ticksByName(comm));
      return ticks === null ? null : pct(ticks);
    };
    return {
      benchClient: Math.round(((used.user + used.system) / 1e6 / seconds) * 100),
      servers: serverPids.map((pid, i) => diff(servers[i], procTicks(pid))),
      postgres: byName(postgres, 'postgres'),
      redis: byName(redis, 'redis-server'),
      machine: machine && m ? Math.round(((m.busy - machine.busy) / Math.max(1, m.all - machine.all)) * 100) : null,
      cores: os.cpus().length,
    };
  };
}

// ---------------------------------------------------------------- where a real server's time goes (evidence for a slow run)
/**
 * While the measured window lasts: each server's HEAD /api/ping every 200 ms (a route with no work:
 * its latency is the server's event loop's delay), and the bench database's sessions every 200 ms
 * (how many of the servers' connections are running a statement, and what those wait on).
 */
export function startDiagnostics({ databaseUrl, bases }) {
  const pings = [];
  const samples = [];
  let stopped = false;
  const pingLoop = async (base) => {
    while (!stopped) {
      const t = now();
      try {
        const res = await fetch(`${base}/api/ping`, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        pings.push(now() - t);
      } catch {
        pings.push(10_000);
      }
      await sleep(Math.max(0, 200 - (now() - t)));
    }
  };
  const client = new pg.Client({ connectionString: databaseUrl });
  const dbLoop = async () => {
    await client.connect();
    while (!stopped) {
      const t = now();
      const { rows } = await client.query(
        `select state, coalesce(wait_event_type || ':' || wait_event, 'CPU') as wait, count(*)::int as n
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
         group by 1, 2`,
      );
      samples.push(rows);
      await sleep(Math.max(0, 200 - (now() - t)));
    }
  };
  const loops = [...bases.map(pingLoop), dbLoop().catch(() => undefined)];
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
      await client.end().catch(() => undefined);
      pings.sort((a, b) => a - b);
      const waits = {};
      let connections = 0;
      let active = 0;
      for (const rows of samples) {
        for (const r of rows) {
          connections += r.n;
          if (r.state !== 'active') continue;
          active += r.n;
          waits[r.wait] = (waits[r.wait] ?? 0) + r.n;
        }
      }
      const per = (n) => round1(n / Math.max(1, samples.length));
      return {
        pingMs: { samples: pings.length, p50: round1(percentile(pings, 50)), p99: round1(percentile(pings, 99)), max: round1(pings.at(-1) ?? 0) },
        database: {
          samples: samples.length,
          connections: per(connections),
          active: per(active),
          waits: Object.fromEntries(Object.entries(waits).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, per(v)])),
        },
      };
    },
  };
}

export function describeDiagnosis(d) {
  const waits = Object.entries(d.database.waits)
    .slice(0, 4)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return (
    `server event loop (HEAD /api/ping every 200 ms): p50 ${d.pingMs.p50} ms, p99 ${d.pingMs.p99} ms, max ${d.pingMs.max} ms; ` +
    `database: ${d.database.connections} connections open, ${d.database.active} running a statement on average${waits ? ` (${waits})` : ''}`
  );
}

// ---------------------------------------------------------------- users
/**
 * PAIRS patients and PAIRS peer coaches in a new organisation (createBenchUsers).
 */
export async function createChatUsers({ databaseUrl, appBase, pairs, log }) {
  const { orgId, groups } = await createBenchUsers({
    databaseUrl,
    appBase,
    org: BENCH_ORG,
    title: 'Chat Bench',
    count: pairs,
    groups: [
      { prefix: 'chat-patient-', roles: ['patient'], firstName: 'Patient' },
      { prefix: 'chat-coach-', roles: ['professional', 'coach'], firstName: 'Coach' },
    ],
    log: (took) => log(`chat users: ${pairs} patients and ${pairs} peer coaches in organisation "${BENCH_ORG}" ${took}`),
  });
  return { orgId, patients: groups[0], coaches: groups[1] };
}

/**
 * `count` accounts of each group in a new organisation `org`, straight into the server's own tables
 * (the users trigger adds each account's patient row: `patientId`), all with one argon2id hash made
 * once (ARGON2_PARAMS); then each signs in through the real route (POST /api/v1/login/), a few at a
 * time, and keeps its access token (good on every server process of the run: they share JWT_SECRET).
 * Answers the organisation's id and the accounts of each group, in order.
 */
export async function createBenchUsers({ databaseUrl, appBase, org, title, count, groups, log }) {
  const startedAt = now();
  const { hash } = await import('@node-rs/argon2');
  const passwordHash = await hash(PASSWORD, ARGON2_PARAMS);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const made = [];
  let orgId;
  try {
    ({ rows: [{ id: orgId }] } = await client.query(
      `insert into organizations (name, org_name, org_short_name, primary_color) values ($1, $2, $2, '#0476d9') returning id`,
      [org, title],
    ));
    for (const { prefix, roles, firstName } of groups) {
      const { rows } = await client.query(
        `insert into users (org_id, email, password_hash, first_name, last_name, roles, email_confirmed_at, dob, gender, sex)
         select $1, $2 || lpad(i::text, 4, '0') || '@bench.example', $3, $4, lpad(i::text, 4, '0'), $5::text[], now(), '1980-01-01', 'undisclosed', 'undisclosed'
         from generate_series(1, $6) as i order by i
         returning id, email`,
        [orgId, prefix, passwordHash, firstName, roles, count],
      );
      made.push(rows);
    }
    const { rows } = await client.query('select id, user_id from patients where user_id = any($1::int[])', [made.flat().map((u) => u.id)]);
    const patientIdOf = new Map(rows.map((r) => [r.user_id, r.id]));
    for (const u of made.flat()) u.patientId = patientIdOf.get(u.id);
  } finally {
    await client.end();
  }
  const insertedAt = now();
  const signIn = async (user) => {
    const answer = await api(appBase, null, 'POST', '/api/v1/login/', { email: user.email, password: PASSWORD, org });
    user.token = answer.access;
  };
  await pool(made.flat(), 16, signIn);
  log(`inserted in ${((insertedAt - startedAt) / 1000).toFixed(1)} s, signed in through POST /api/v1/login/ (16 at a time) in ${((now() - insertedAt) / 1000).toFixed(1)} s`);
  return { orgId, groups: made };
}

// ---------------------------------------------------------------- pairs on the real server
/**
 * Opens the pairs on the real server(s): each patient joins the coaches' queue (REST, on the
 * patients' process), each coach takes their patient (POST /api/v1/chat/queue/take/, on the coaches'
 * process), then each patient opens the socket (its welcome lists the active conversation, then come
 * `started` and the greeting, as to a client that connects after being taken) and each coach opens
 * the staff socket (its welcome lists the conversation). Sockets are opened after the takes on
 * purpose: while patients wait with a socket open, every join, opening and take makes the server
 * recompute the organisation's queue for them (a query over every waiting conversation, a position
 * event each), which with 500 waiting is most of a minute of setup here and none of the relay.
 */
async function openRealPairs({ users, count, patientBase, coachBase }) {
  const pairs = Array.from({ length: count }, (_, i) => ({ index: i, patientUser: users.patients[i], coachUser: users.coaches[i] }));
  const steps = [];
  let stepAt = now();
  const step = (name) => {
    steps.push(`${name} ${((now() - stepAt) / 1000).toFixed(1)} s`);
    stepAt = now();
  };
  await pool(pairs, 16, async (pair) => {
    pair.details = await api(patientBase, pair.patientUser.token, 'POST', '/api/v1/peercoaching/sendmessagetoqueue/', { provider_type: 'coach', reason: 'stress' });
    if (pair.details.status !== 'queued') throw new Error(`${pair.patientUser.email}: joined a chat that is ${pair.details.status}`);
    pair.conversationId = pair.details.conversation_id;
  });
  step('joined');
  await pool(pairs, 16, async (pair) => {
    const taken = await api(coachBase, pair.coachUser.token, 'POST', '/api/v1/chat/queue/take/', { conversation_id: pair.conversationId });
    if (taken.status !== 'active') throw new Error(`conversation ${pair.conversationId} is ${taken.status} after the take`);
  });
  step('taken');
  await pool(pairs, 32, async (pair) => {
    const { ticket } = await api(patientBase, pair.patientUser.token, 'POST', '/api/v1/chat/ticket/');
    const d = pair.details;
    const s = new BenchSocket(
      `${wsBase(patientBase)}${CHAT_SOCKET_PATH}?${query({ ticket, userId: d.user_id, isPatient: true, reason: d.reason, providerType: d.provider_type, patientId: d.patient_id, orgName: d.org_name })}`,
    );
    pair.patient = s;
    const { event } = await s.waitFor((e) => e.type === 'welcome', 20_000, 'welcome (patient)');
    if (event.conversations[0]?.status !== 'active') throw new Error(`${pair.patientUser.email}: the welcome lists ${JSON.stringify(event.conversations)}`);
    await s.waitFor((e) => e.type === 'started' && e.conversationId === pair.conversationId, 20_000, 'started (patient)');
    await s.waitFor((e) => e.type === 'message' && e.kind === 'greeting', 20_000, 'the greeting (patient)');
  });
  step('patient sockets');
  await pool(pairs, 32, async (pair) => {
    const { ticket } = await api(coachBase, pair.coachUser.token, 'POST', '/api/v1/chat/ticket/');
    const s = new BenchSocket(`${wsBase(coachBase)}${CHAT_SOCKET_PATH}?${query({ ticket, userId: pair.coachUser.id, isPatient: false, orgName: BENCH_ORG })}`);
    pair.coach = s;
    const { event } = await s.waitFor((e) => e.type === 'welcome', 20_000, 'welcome (coach)');
    if (!event.conversations.some((c) => c.conversation_id === pair.conversationId)) throw new Error(`coach ${pair.coachUser.email}: the welcome does not list conversation ${pair.conversationId}`);
    // The last thing a staff socket's opening sends (after the conversation's history).
    await s.waitFor((e) => e.type === 'queue', 20_000, 'queue (coach)');
  });
  step('coach sockets');
  // What the openings sent (the coach's copy of the greeting, positions) is not load.
  for (const p of pairs) {
    p.patient.backlog.length = 0;
    p.coach.backlog.length = 0;
  }
  pairs.steps = steps;
  return pairs;
}

/** Ends the pairs' chats (the patient's endChat: the server closes the patient's socket with 4000) and closes the rest. */
async function closeRealPairs(pairs) {
  await pool(pairs, 64, async (pair) => {
    if (pair.patient?.closedCode === null) {
      pair.patient.send({ action: 'endChat' });
      await Promise.race([pair.patient.closed, sleep(10_000)]);
    }
  });
  await Promise.all(pairs.flatMap((p) => [p.patient?.close(), p.coach?.close()]));
}

// ---------------------------------------------------------------- pairs on the bare relay
async function openBarePairs({ count, patientBase, coachBase }) {
  const pairs = Array.from({ length: count }, (_, i) => ({ index: i, conversationId: i + 1 }));
  await pool(pairs, 64, async (pair) => {
    pair.patient = new BenchSocket(`${wsBase(patientBase)}/socket?pair=${pair.index}&side=patient`);
    pair.coach = new BenchSocket(`${wsBase(coachBase)}/socket?pair=${pair.index}&side=coach`);
    await Promise.all([pair.patient.opened, pair.coach.opened]);
  });
  return pairs;
}

async function closeBarePairs(pairs) {
  await Promise.all(pairs.flatMap((p) => [p.patient?.close(), p.coach?.close()]));
}

// ---------------------------------------------------------------- the relay load
/**
 * Every socket sends `rate` messages a second to the other side of its pair, for warm-up + duration
 * seconds; then the bench waits (up to DRAIN_MS) for what is still on its way. Answers the row.
 */
async function relayLoad(pairs, { rate, warmupS, durationS, tag, serverPids, diagnose, deadline }) {
  /** clientMessageId -> what became of it */
  const sent = new Map();
  const errors = {};
  let unexpected = 0;
  let misrouted = 0;
  let duplicates = 0;
  let extraAcks = 0;
  const latencies = [];
  const ackLatencies = [];
  /** Deliveries received inside the measured window, whenever they were sent: the relay's throughput. */
  let deliveredInWindow = 0;
  const periodMs = 1000 / rate;
  const sockets = pairs.flatMap((p) => [
    { s: p.patient, to: p.coach, side: 'p', pair: p },
    { s: p.coach, to: p.patient, side: 'c', pair: p },
  ]);

  const t0 = now();
  const measureFrom = t0 + warmupS * 1000;
  const measureTo = measureFrom + durationS * 1000;
  for (const { s } of sockets) {
    s.handler = (event, at) => {
      if (event.type === 'message') {
        const rec = event.clientMessageId ? sent.get(event.clientMessageId) : undefined;
        if (!rec) {
          unexpected++;
          return;
        }
        if (rec.to !== s) {
          misrouted++;
          return;
        }
        rec.delivered++;
        if (rec.delivered > 1) {
          duplicates++;
          return;
        }
        if (at >= measureFrom && at < measureTo) deliveredInWindow++;
        if (rec.measured) latencies.push(at - rec.at);
      } else if (event.type === 'ack') {
        const rec = event.clientMessageId ? sent.get(event.clientMessageId) : undefined;
        if (!rec || rec.from !== s) return void unexpected++;
        if (rec.ackAt !== null) return void extraAcks++;
        rec.ackAt = at;
        if (rec.measured) ackLatencies.push(at - rec.at);
      } else if (event.type === 'error') {
        errors[event.code] = (errors[event.code] ?? 0) + 1;
        const rec = event.clientMessageId ? sent.get(event.clientMessageId) : undefined;
        if (rec) rec.refused = event.code;
      }
    };
  }

  const closedBefore = sockets.filter((x) => x.s.closedCode !== null).length;
  // The histogram holds the time between its timer's ticks: minus the resolution, the loop's lateness.
  const LOOP_RESOLUTION_MS = 5;
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const lateness = (ns) => round1(Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS));
  let meter;
  let diagnostics;
  const meterStart = setTimeout(() => {
    meter = cpuMeter(serverPids);
    loopDelay.enable();
    if (diagnose) diagnostics = startDiagnostics(diagnose);
  }, warmupS * 1000);
  let seq = 0;
  await Promise.all(
    sockets.map(
      ({ s, to, side, pair }) =>
        new Promise((resolve) => {
          const phase = Math.random() * periodMs;
          let k = 0;
          const tick = () => {
            const at = now();
            if (at >= measureTo || s.closedCode !== null) return resolve();
            const id = `${tag}-${pair.index}${side}${++seq}`;
            sent.set(id, { at, from: s, to, measured: at >= measureFrom, delivered: 0, ackAt: null, refused: null });
            s.send(`{"action":"sendMessage","Msg":"How are you feeling today? Bench message ${seq} of pair ${pair.index}.","conversationId":${pair.conversationId},"clientMessageId":"${id}"}`);
            k++;
            setTimeout(tick, Math.max(0, t0 + phase + k * periodMs - now()));
          };
          setTimeout(tick, phase);
        }),
    ),
  );
  clearTimeout(meterStart);
  const cpu = meter?.();
  loopDelay.disable();
  if (cpu) cpu.benchLoopP99Ms = lateness(loopDelay.percentile(99));
  const diagnosis = await diagnostics?.stop();
  // What is still on its way: a server behind its load answers the backlog after the load stops.
  const stoppedAt = now();
  const outstanding = () => {
    let n = 0;
    for (const rec of sent.values()) if ((rec.delivered === 0 || rec.ackAt === null) && rec.refused === null) n++;
    return n;
  };
  let left = outstanding();
  let progressAt = now();
  const drainUntil = Math.min(stoppedAt + DRAIN_MAX_MS, Math.max(stoppedAt + DRAIN_IDLE_MS, deadline));
  while (left > 0 && now() - progressAt < DRAIN_IDLE_MS && now() < drainUntil && sockets.some((x) => x.s.closedCode === null)) {
    await sleep(100);
    const n = outstanding();
    if (n < left) progressAt = now();
    left = n;
  }
  const drainMs = now() - stoppedAt;
  // Stopped waiting while messages were still arriving: those are late, not known to be lost.
  const stillArriving = left > 0 && now() - progressAt < DRAIN_IDLE_MS;
  for (const { s } of sockets) s.handler = null;

  // Lost: neither delivered nor refused (an error event naming it), however long it was waited for.
  let lost = 0;
  let late = 0;
  let refused = 0;
  let unacked = 0;
  let measuredSent = 0;
  for (const rec of sent.values()) {
    if (rec.refused !== null) refused++;
    else if (rec.delivered === 0 && stillArriving) late++;
    else if (rec.delivered === 0) lost++;
    if (rec.ackAt === null && rec.refused === null) unacked++;
    if (rec.measured) measuredSent++;
  }
  const closeCodes = {};
  for (const { s } of sockets) if (s.closedCode !== null) closeCodes[s.closedCode] = (closeCodes[s.closedCode] ?? 0) + 1;
  latencies.sort((a, b) => a - b);
  ackLatencies.sort((a, b) => a - b);
  const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
  const closed = sockets.filter((x) => x.s.closedCode !== null).length - closedBefore;
  return {
    sockets: sockets.length,
    ratePerSocket: rate,
    sent: sent.size,
    measuredSent,
    delivered: latencies.length,
    offeredPerSec: measuredSent / durationS,
    msgPerSec: deliveredInWindow / durationS,
    latencyMs: latencySummary(latencies),
    ackLatencyMs: { p50: round1(percentile(ackLatencies, 50)), p99: round1(percentile(ackLatencies, 99)) },
    lost,
    late,
    refused,
    duplicates,
    misrouted,
    unacked,
    extraAcks,
    unexpected,
    errors,
    errorCount,
    socketsClosed: closed,
    closeCodes,
    drainMs: Math.round(drainMs),
    benchLoopDelayMs: { p99: lateness(loopDelay.percentile(99)), max: lateness(loopDelay.max) },
    cpu: cpu ?? null,
    diagnosis: diagnosis ?? null,
  };
}

// ---------------------------------------------------------------- the 5 MB transfer
function pdfBytes() {
  const head = Buffer.from('%PDF-1.7\n');
  return Buffer.concat([head, randomBytes(CHAT_FILE_MAX_BYTES - head.length)]);
}

/**
 * The patient of `pair` sends `data` in slices, each after the previous one's ack; answers the
 * times to the last ack and to the coach's receipt, and the download's time and identity.
 */
async function transferOnce(pair, data, b64, { tag, fileUrl, token }) {
  const count = Math.ceil(b64.length / CHAT_SLICE_CHARS);
  const clientMessageId = `${tag}-file`;
  const received = pair.coach.waitFor((e) => e.type === 'message' && e.clientMessageId === clientMessageId, 120_000, 'the file message (coach)');
  received.catch(() => undefined);
  const t0 = now();
  let last;
  for (let i = 0; i < count; i++) {
    const piece = b64.slice(i * CHAT_SLICE_CHARS, (i + 1) * CHAT_SLICE_CHARS);
    const answer = pair.patient.waitFor((e) => (e.type === 'ack' && e.chunkId === i) || e.type === 'error', 30_000, `the ack of slice ${i}`);
    pair.patient.send({ action: 'sendMessage', chunkId: i, fileName: 'bench-5mb.pdf', chunkSize: piece.length, isEOF: i === count - 1, Msg: piece, contentType: 'application/pdf', conversationId: pair.conversationId, clientMessageId });
    const { event, at } = await answer;
    if (event.type === 'error') throw new Error(`slice ${i} refused: ${event.code} ${event.Message}`);
    last = { event, at };
  }
  const ackMs = last.at - t0;
  const fileId = last.event.id;
  const { event: message, at: receivedAt } = await received;
  if (message.file?.id !== fileId || message.file?.size !== data.length) throw new Error(`the coach got ${JSON.stringify(message.file)}, not file ${fileId} of ${data.length} bytes`);
  const g0 = now();
  const res = await fetch(fileUrl(fileId), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = Buffer.from(await res.arrayBuffer());
  const getMs = now() - g0;
  return { slices: count, ackMs, receivedMs: receivedAt - t0, getMs, status: res.status, identical: res.ok && body.equals(data) };
}

async function transfer(pair, opts) {
  const data = pdfBytes();
  const b64 = data.toString('base64');
  const rounds = [];
  for (let r = 0; r < TRANSFER_ROUNDS; r++) rounds.push(await transferOnce(pair, data, b64, { ...opts, tag: `${opts.tag}r${r}` }));
  const receivedMs = median(rounds.map((r) => r.receivedMs));
  return {
    bytes: data.length,
    slices: rounds[0].slices,
    rounds: rounds.length,
    ackMs: round1(median(rounds.map((r) => r.ackMs))),
    receivedMs: round1(receivedMs),
    getMs: round1(median(rounds.map((r) => r.getMs))),
    mbPerSec: round1(data.length / 1_048_576 / (receivedMs / 1000)),
    identical: rounds.every((r) => r.identical),
    all: rounds.map((r) => ({ ackMs: round1(r.ackMs), receivedMs: round1(r.receivedMs), getMs: round1(r.getMs), status: r.status, identical: r.identical })),
  };
}

// ---------------------------------------------------------------- running the chosen scenarios
/**
 * Runs the chosen chat scenarios, server by server: opens the pairs, runs the relay load, then the
 * transfers on the first pair (the other sockets stay open, idle), and closes everything.
 *
 * @param {object} o
 * @param {Array<typeof chatScenarios[number]>} o.chosen
 * @typedef {{ base: string, pid: number, logTail: () => string[] }} BenchProcess
 * @param {BenchProcess} o.app            the real server the bench started (no Redis)
 * @param {string} o.databaseUrl          the bench database
 * @param {(name: string, env: object) => Promise<BenchProcess>} o.startServer      another real server process, same database and data directory
 * @param {(name: string, env: object) => Promise<BenchProcess>} o.startBareRelay   a bare relay (bench/chat-baseline.mjs)
 * @param {number} o.durationS
 * @param {number} o.warmupS
 * @param {(line: string) => void} o.log
 */
export async function runChatBench({ chosen, app, databaseUrl, startServer, startBareRelay, durationS, warmupS, log }) {
  const settings = chatSettings();
  const startedAt = now();
  const deadline = startedAt + settings.budgetS * 1000;
  const rows = [];
  const skipped = [];
  const servers = RUN_ORDER.filter((server) => chosen.some((s) => s.server === server));
  const loadAtStart = os.loadavg()[0];
  log(
    `chat: ${settings.pairs} pairs (${settings.pairs * 2} sockets), ${settings.rate} messages/s per socket (${Math.round(settings.pairs * 2 * settings.rate).toLocaleString('en-US')}/s in all), ` +
      `${warmupS} s warm-up + ${durationS} s measured; budget ${settings.budgetS} s; ${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)}`,
  );

  let redisProblem = null;
  if (servers.some((s) => s === 'two' || s === 'bare2')) redisProblem = await redisUnreachable(settings.redisUrl);
  let users = null;

  for (const server of servers) {
    const scenarios = chosen.filter((s) => s.server === server);
    const skip = (why) => {
      for (const s of scenarios) skipped.push({ name: s.name, why });
      log(`${scenarios.map((s) => s.name).join(', ')}: SKIPPED — ${why}`);
    };
    if ((server === 'two' || server === 'bare2') && redisProblem) {
      skip(redisProblem);
      continue;
    }
    // What a server's scenarios need, about: setup (sign-ins, pairs), warm-up, measure, drain, transfers.
    const real = server === 'one' || server === 'two';
    const needS = (scenarios.some((s) => s.kind === 'relay') ? warmupS + durationS + (real ? 30 : 5) : 0) + (scenarios.some((s) => s.kind === 'file') ? 10 : 0);
    if (now() + needS * 1000 > deadline) {
      skip(`the chat budget (BENCH_CHAT_BUDGET=${settings.budgetS} s) would be exceeded`);
      continue;
    }
    const relay = scenarios.find((s) => s.kind === 'relay');
    const file = scenarios.find((s) => s.kind === 'file');
    const count = relay ? settings.pairs : 1;
    const tag = `b${randomBytes(3).toString('hex')}`;

    let patientBase;
    let coachBase;
    let procs;
    if (server === 'bare') {
      const bare = await startBareRelay('bare relay', {});
      patientBase = coachBase = bare.base;
      procs = [bare];
    } else if (server === 'bare2') {
      const [a, b] = await Promise.all([startBareRelay('bare relay A (Redis)', { REDIS_URL: settings.redisUrl }), startBareRelay('bare relay B (Redis)', { REDIS_URL: settings.redisUrl })]);
      patientBase = a.base;
      coachBase = b.base;
      procs = [a, b];
    } else if (server === 'one') {
      patientBase = coachBase = app.base;
      procs = [app];
    } else {
      const [a, b] = await Promise.all([startServer('server A (Redis)', { REDIS_URL: settings.redisUrl }), startServer('server B (Redis)', { REDIS_URL: settings.redisUrl })]);
      patientBase = a.base;
      coachBase = b.base;
      procs = [a, b];
      log(`two server processes on the bench database and ${settings.redisUrl}: A ${a.base} (patients), B ${b.base} (coaches)`);
    }
    const pids = procs.map((p) => p.pid);
    if (real && !users) users = await createChatUsers({ databaseUrl, appBase: app.base, pairs: settings.pairs, log });

    const setupAt = now();
    const pairs = real ? await openRealPairs({ users, count, patientBase, coachBase }) : await openBarePairs({ count, patientBase, coachBase });
    log(`${SERVERS[server]}: ${count} pairs (${count * 2} sockets) open and paired in ${((now() - setupAt) / 1000).toFixed(1)} s${pairs.steps ? ` (${pairs.steps.join(', ')})` : ''}`);
    try {
      if (relay) {
        process.stdout.write(`[bench] ${relay.name}: ${count * 2} sockets x ${settings.rate} msg/s … `);
        const diagnose = real ? { databaseUrl, bases: [...new Set([patientBase, coachBase])] } : null;
        const result = await relayLoad(pairs, { rate: settings.rate, warmupS, durationS, tag, serverPids: pids, diagnose, deadline });
        const row = { name: relay.name, kind: 'relay', server, processes: pids.length, ...result };
        if (relay.baseline) row.baseline = relay.baseline;
        if (relay.maxP99Ms !== undefined) row.maxP99Ms = relay.maxP99Ms;
        rows.push(row);
        console.log(`${Math.round(result.msgPerSec).toLocaleString('en-US')} msg/s, p99 ${result.latencyMs.p99} ms, lost ${result.lost}, duplicated ${result.duplicates}, errors ${result.errorCount}`);
        if (result.cpu) log(`  CPU in the measured window (% of one core): ${describeCpu(result.cpu, server)}`);
        if (result.diagnosis) log(`  ${describeDiagnosis(result.diagnosis)}`);
        if (result.drainMs > 1_000) log(`  the last messages arrived ${(result.drainMs / 1000).toFixed(1)} s after the load stopped`);
        if (real && (result.errorCount > 0 || result.socketsClosed > 0)) {
          result.serverErrors = serverErrors(procs.map((p) => p.logTail()));
          for (const [message, n] of Object.entries(result.serverErrors)) log(`  the server logged (last ${LOG_TAIL} lines): ${n} x ${message}`);
        }
      }
      if (file) {
        process.stdout.write(`[bench] ${file.name}: ${TRANSFER_ROUNDS} rounds … `);
        const pair = pairs[0];
        const fileUrl = real ? (id) => `${coachBase}/api/v1/chat/files/${id}/` : (id) => `${patientBase}/files/${id}`;
        const result = await transfer(pair, { tag: `${tag}f`, fileUrl, token: real ? pair.coachUser.token : null });
        const row = { name: file.name, kind: 'file', server, processes: pids.length, ...result };
        if (file.baseline) row.baseline = file.baseline;
        rows.push(row);
        console.log(`${result.slices} slices, last ack ${result.ackMs} ms, received ${result.receivedMs} ms, download ${result.getMs} ms, ${result.identical ? 'identical' : 'NOT identical'}`);
      }
    } finally {
      await (real ? closeRealPairs(pairs) : closeBarePairs(pairs));
    }
  }

  rows.sort((a, b) => chatScenarios.findIndex((s) => s.name === a.name) - chatScenarios.findIndex((s) => s.name === b.name));
  for (const row of rows) {
    const base = row.baseline && rows.find((r) => r.name === row.baseline);
    if (!base) continue;
    row.ratio =
      row.kind === 'relay'
        ? { p99: base.latencyMs.p99 > 0 ? row.latencyMs.p99 / base.latencyMs.p99 : null, msgPerSec: base.msgPerSec > 0 ? row.msgPerSec / base.msgPerSec : null }
        : { receivedMs: base.receivedMs > 0 ? row.receivedMs / base.receivedMs : null };
  }
  const elapsedS = (now() - startedAt) / 1000;
  const loadAtEnd = os.loadavg()[0];
  log(`chat part took ${elapsedS.toFixed(0)} s (load average ${loadAtEnd.toFixed(1)} on ${os.cpus().length} cores)`);
  return { settings: { ...settings, durationS, warmupS }, loadAverage: { start: loadAtStart, end: loadAtEnd }, rows, skipped, elapsedS, checks: chatChecks(rows) };
}

export const LOG_TAIL = 40; // bench/support.mjs keeps a child's last 40 lines

/** What the servers' logs (pino JSON, warnings and errors) say went wrong, by message. */
export function serverErrors(tails) {
  const counts = {};
  for (const line of tails.flat()) {
    let entry;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if ((entry.level ?? 0) < 50) continue;
    const message = `${entry.msg ?? ''}${entry.err?.message ? `: ${entry.err.message}` : ''}`.slice(0, 200);
    counts[message] = (counts[message] ?? 0) + 1;
  }
  return counts;
}

export function describeCpu(cpu, server) {
  const names = server === 'two' ? ['server A', 'server B'] : server === 'bare2' ? ['relay A', 'relay B'] : [server === 'one' ? 'server' : 'relay'];
  const parts = [`bench client ${cpu.benchClient}% (its event loop p99 ${cpu.benchLoopP99Ms} ms)`, ...cpu.servers.map((v, i) => `${names[i]} ${v ?? '?'}%`)];
  if (cpu.postgres !== null) parts.push(`postgres ${cpu.postgres}%`);
  if (cpu.redis !== null) parts.push(`redis ${cpu.redis}%`);
  if (cpu.machine !== null) parts.push(`machine ${cpu.machine}% of ${cpu.cores} cores`);
  return parts.join(', ');
}

export async function redisUnreachable(url) {
  if (!url) return 'BENCH_REDIS_URL=off';
  try {
    const { Redis } = await import('ioredis');
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      await probe.ping();
      return null;
    } finally {
      probe.disconnect();
    }
  } catch (err) {
    return `Redis is not reachable at ${url} (${err.message}); start one or set BENCH_REDIS_URL`;
  }
}

function chatChecks(rows) {
  const checks = [];
  const baseP99 = (r) => {
    const base = rows.find((b) => b.name === r.baseline);
    return base ? `p99 ${base.latencyMs.p99} ms` : 'not run';
  };
  for (const r of rows) {
    if (r.kind === 'relay') {
      if (r.maxP99Ms !== undefined) {
        checks.push({ name: `${r.name} p99 <= ${r.maxP99Ms} ms`, pass: r.latencyMs.p99 <= r.maxP99Ms && r.delivered > 0, value: r.latencyMs.p99, threshold: r.maxP99Ms, line: `${r.name}: relay p99 ${r.latencyMs.p99} ms (${r.baseline}: ${baseP99(r)}); target ≤ ${r.maxP99Ms} ms` });
      }
      const faults = r.lost + r.late + r.duplicates + r.misrouted + r.unacked + r.extraAcks + r.errorCount + r.socketsClosed;
      checks.push({
        name: `${r.name}: every message acknowledged and delivered exactly once`,
        pass: faults === 0 && r.sent > 0,
        value: faults,
        threshold: 0,
        line:
          `${r.name}: ${r.sent.toLocaleString('en-US')} sent: ${r.lost} lost, ${r.late ? `${r.late} still on their way after ${(r.drainMs / 1000).toFixed(0)} s, ` : ''}${r.duplicates} duplicated, ${r.misrouted} misrouted, ${r.unacked} not acknowledged, ` +
          `${r.refused} refused, ${r.errorCount} error events${r.errorCount ? ` ${JSON.stringify(r.errors)}` : ''}, ` +
          `${r.socketsClosed} sockets closed by the server${r.socketsClosed ? ` (codes ${JSON.stringify(r.closeCodes)})` : ''}`,
      });
    } else {
      checks.push({ name: `${r.name}: the downloaded file is byte-identical`, pass: r.identical, value: r.identical ? 1 : 0, threshold: 1, line: `${r.name}: ${r.bytes.toLocaleString('en-US')} bytes in ${r.slices} slices, downloaded ${r.identical ? 'byte-identical' : 'DIFFERENT'} (${r.rounds} rounds)` });
    }
  }
  return checks;
}

/** The chat tables, as printed. */
export function printChatTables(result) {
  const relay = result.rows.filter((r) => r.kind === 'relay');
  const files = result.rows.filter((r) => r.kind === 'file');
  const table = (head, body, leftCols = [0]) => {
    const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
    const line = (cells) => cells.map((c, i) => (leftCols.includes(i) || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
    console.log(line(head));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const row of body) console.log(line(row));
  };
  const x = (ratio) => (ratio === null || ratio === undefined ? '' : `${ratio.toFixed(1)}x`);
  /** A baseline's server, as its name ends. */
  const short = (name) => name.slice(name.indexOf(': ') + 2);
  if (relay.length) {
    table(
      ['chat relay', 'sockets', 'msg/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'ack p99', 'lost', 'dup', 'refused', 'closed', 'vs baseline'],
      relay.map((r) => [
        r.name,
        String(r.sockets),
        Math.round(r.msgPerSec).toLocaleString('en-US'),
        String(r.latencyMs.p50),
        String(r.latencyMs.p95),
        String(r.latencyMs.p99),
        String(r.latencyMs.max),
        String(r.ackLatencyMs.p99),
        r.late ? `${r.lost} (+${r.late} late)` : String(r.lost),
        String(r.duplicates + r.misrouted),
        String(r.refused),
        String(r.socketsClosed),
        r.ratio ? `p99 ${x(r.ratio.p99)}, msg/s ${Math.round((r.ratio.msgPerSec ?? 0) * 100)}% of ${short(r.baseline)}` : '',
      ]),
    );
    console.log('');
  }
  if (files.length) {
    table(
      ['chat file (5,242,880 bytes)', 'slices', 'last ack ms', 'received ms', 'MB/s', 'download ms', 'identical', 'vs baseline'],
      files.map((r) => [r.name, String(r.slices), String(r.ackMs), String(r.receivedMs), String(r.mbPerSec), String(r.getMs), r.identical ? 'yes' : 'NO', r.ratio ? `time ${x(r.ratio.receivedMs)} ${short(r.baseline)}'s` : '']),
    );
    console.log('');
  }
}
