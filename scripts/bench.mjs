#!/usr/bin/env node
// `npm run bench`: loads the real server and two bare Fastify baselines with autocannon, on loopback,
// against a throw-away PostgreSQL database; then the live chat (bench/chat.mjs: 1,000 sockets relaying
// messages, a 5 MB file in slices, on one process and on two with Redis, beside a bare `ws` relay);
// then measures the sign-in page's JavaScript (gzipped); then Lighthouse on the signed-in pages
// (bench/lighthouse.mjs: mobile, simulated throttling, cold HTTP cache, median of BENCH_LIGHTHOUSE_RUNS).
// It runs first, on the freshly seeded demo data, before the load adds records.
//
//   npm run bench -- lighthouse   only the Lighthouse part (words after `--` join BENCH_ONLY)
//
//   DATABASE_URL       admin URL used to create/drop hb_bench_<random> (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_DURATION     seconds per measured run (default 10)
//   BENCH_WARMUP       seconds of warm-up before each run (default 2)
//   BENCH_CONNECTIONS  concurrent connections (default 100)
//   BENCH_SKIP_BUILD   set to 1 to use whatever is built instead of running `npm run build`
//   BENCH_STRICT       set to 1 to exit with code 1 when a PASS/FAIL check fails
//   BENCH_ONLY         comma-separated words: only the targets, chat and visit scenarios whose name holds one of them
//                      (and their baselines); the sign-in page's JavaScript is measured when a word is in "bundle",
//                      Lighthouse when one is in "lighthouse"
//   BENCH_LIGHTHOUSE_RUNS  Lighthouse runs per page, of which the median is shown (default 3)
//   BENCH_CHAT_PAIRS   chat: patient–coach pairs (default 500, so 1,000 sockets)
//   BENCH_CHAT_RATE    chat: messages a second each socket sends (default 2; the server allows 5 after a burst of 20)
//   BENCH_CHAT_BUDGET  chat: seconds the chat part may take; scenarios that would not fit are skipped (default 180)
//   BENCH_REDIS_URL    chat and visits: the Redis of the two-process scenarios (default REDIS_URL, else redis://127.0.0.1:6379;
//                      "off" skips them). The bench's main server never uses Redis: it is the one-process case.
//   BENCH_VISITS       visits: video visits signalling at once (default 200, so 400 sockets)
//   BENCH_VISITS_ROUNDS  visits: offer/answer exchanges measured per visit, one a second (default 5, after one of warm-up)
//   BENCH_SERVER_NODE_ARGS  extra node arguments for the real server processes, space-separated
//                      (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to see where their time goes)
//
// Then the video visits' signalling (bench/visits.mjs: 400 sockets, offers answered, on the chat's servers and bare relays).
//
// Then the connected sources (bench/sources.ts, through tsx): the tests' EHR with BENCH_SOURCES_RESOURCES
// resources (default 5,000) connected by the demo patient; the first sync, a re-sync with nothing new and a
// full one, the longest stall of the server's loop meanwhile, beside the FHIR export (JSON) of the same records.
//   npm run bench -- sources      only that part (with BENCH_ONLY, when a word is in "sources")
//
// Targets live in bench/targets.mjs, chat scenarios in bench/chat.mjs, visit scenarios in bench/visits.mjs; results are written to .bench/results.json
// (Lighthouse's last report of each page to .bench/lighthouse/<page>.json).
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { targets } from '../bench/targets.mjs';
import { chatScenarios, printChatTables, runChatBench } from '../bench/chat.mjs';
import { printVisitsTable, runVisitsBench, visitScenarios } from '../bench/visits.mjs';
import { BenchDatabase, Children, freePort, redact, waitForHttp } from '../bench/support.mjs';
import { buildStale } from './build-stale.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/server.js');
const WEB_INDEX = path.join(ROOT, 'apps/web/dist/index.html');
const RESULTS_FILE = path.join(ROOT, '.bench/results.json');
const ADMIN_URL = process.env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres';
const BUNDLE_BUDGET_KB = 150; // gzipped JavaScript of the sign-in page; 1 KB = 1024 bytes
const SIGN_IN_PATH = '/healthbook/login';

function seconds(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number of seconds, got "${raw}"`);
  return n;
}
const DURATION = seconds('BENCH_DURATION', 10);
const WARMUP = seconds('BENCH_WARMUP', 2);
const CONNECTIONS = Math.max(1, Math.round(seconds('BENCH_CONNECTIONS', 100)));
const ONLY = [...(process.env.BENCH_ONLY ?? '').split(','), ...process.argv.slice(2)].map((w) => w.trim().toLowerCase()).filter(Boolean);
const LIGHTHOUSE_RUNS = Math.max(1, Math.round(seconds('BENCH_LIGHTHOUSE_RUNS', 3)));
/** One secret for every server process of the run, so a token signed by one is good on the others. */
const JWT_SECRET = randomBytes(32).toString('hex');

/** Of `list` (targets or chat scenarios): all, or (BENCH_ONLY) those named and the baselines they compare with, in their order. */
function selected(list) {
  if (ONLY.length === 0) return list;
  const chosen = new Set(list.filter((t) => ONLY.some((w) => t.name.toLowerCase().includes(w))).map((t) => t.name));
  for (const t of list) if (chosen.has(t.name) && t.baseline) chosen.add(t.baseline);
  return list.filter((t) => chosen.has(t.name));
}
/** The sign-in page's JavaScript: always, or when a BENCH_ONLY word is in its name. */
const BUNDLE_NAME = 'sign-in page javascript bundle';
const bundleSelected = () => ONLY.length === 0 || ONLY.some((w) => BUNDLE_NAME.includes(w));
const LIGHTHOUSE_NAME = 'lighthouse';
const lighthouseSelected = () => ONLY.length === 0 || ONLY.some((w) => LIGHTHOUSE_NAME.includes(w));
const SOURCES_NAME = 'sources';
const sourcesSelected = () => ONLY.length === 0 || ONLY.some((w) => SOURCES_NAME.includes(w));
/** The sources part's goals (issue 28). */
const SOURCES_GOALS = { firstSyncMs: 60_000, resyncNothingNewMs: 5_000, stallMaxMs: 50 };

const log = (msg) => console.log(`[bench] ${msg}`);
const fmtInt = (n) => Math.round(n).toLocaleString('en-US');
const kb = (bytes) => (bytes / 1024).toFixed(1);

// ---------------------------------------------------------------- cleanup, on every way out
const children = new Children();
let db;
let dataDir;
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    await children.stopAll().catch((err) => console.error(`[bench] stopping children: ${err.message}`));
    if (db?.created) {
      try {
        await db.drop();
        log(`dropped database ${db.name}`);
      } catch (err) {
        console.error(`[bench] could not drop database ${db.name}: ${err.message} (drop it by hand)`);
      }
    }
    if (dataDir) await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
  })();
  return cleaning;
}
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.on(signal, () => {
    if (cleaning) return;
    console.error(`\n[bench] ${signal}: stopping servers and dropping the database…`);
    void cleanup().finally(() => process.exit(code));
  });
}

// ---------------------------------------------------------------- steps
function validateTargets() {
  const names = new Set();
  for (const t of targets) {
    if (names.has(t.name)) throw new Error(`bench/targets.mjs: duplicate target name "${t.name}"`);
    if (!['bare', 'select', 'app'].includes(t.server)) throw new Error(`bench/targets.mjs: "${t.name}" has unknown server "${t.server}"`);
    if (t.baseline && !names.has(t.baseline)) {
      throw new Error(`bench/targets.mjs: "${t.name}" compares with "${t.baseline}", which must be listed before it`);
    }
    names.add(t.name);
  }
}

/** Builds what is missing or older than its sources (as `npm start` does), so the bench measures this checkout. */
async function build() {
  if (process.env.BENCH_SKIP_BUILD === '1') {
    log('BENCH_SKIP_BUILD=1: measuring whatever is built');
  } else {
    const code = await buildStale({ log: (line) => log(line) });
    if (code !== 0) throw new Error(`the build failed (exit ${code})`);
  }
  if (!existsSync(SERVER_ENTRY)) throw new Error('apps/server/dist/server.js is missing and could not be built');
}

/**
 * A server process on the bench database. The first one migrates and seeds; later ones (the chat's
 * two processes with Redis) share its data directory (files written by one are read by another, as
 * a shared store would serve them) and its JWT secret. Redis only where `extraEnv` gives REDIS_URL.
 */
async function startServer(databaseUrl, name = 'server', extraEnv = {}) {
  const port = await freePort();
  dataDir ??= await mkdtemp(path.join(os.tmpdir(), 'hb-bench-data-'));
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    // Load from one address: the per-IP sign-in limit would answer 429s instead of measuring.
    AUTH_RATE_LIMIT: '1000000',
    // The sources part's EHR is on loopback over http (production otherwise asks only https on public addresses).
    SOURCES_ALLOW_INSECURE: 'true',
    DATA_DIR: dataDir,
    JWT_SECRET,
  };
  delete env.REDIS_URL;
  Object.assign(env, extraEnv);
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const entry = children.spawn(name, process.execPath, [...nodeArgs, SERVER_ENTRY], { cwd: ROOT, env });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/api/health`, entry.child);
  // The last lines it logged (warnings and errors: LOG_LEVEL=warn), for the chat's evidence.
  return { base, pid: entry.child.pid, logTail: () => [...entry.tail] };
}

async function startBaseline(mode, databaseUrl) {
  const env = { ...process.env, NODE_ENV: 'production', DATABASE_URL: databaseUrl };
  delete env.PORT;
  const script = path.join(ROOT, 'bench/baseline-server.mjs');
  const { port } = await children.fork(`baseline ${mode}`, script, [mode], { cwd: ROOT, env });
  return `http://127.0.0.1:${port}`;
}

/** The chat's and the visits' bare `ws` relay (bench/chat-baseline.mjs), with REDIS_URL in `extraEnv` for the two-process one. */
async function startBareRelay(name, extraEnv) {
  const env = { ...process.env, NODE_ENV: 'production' };
  delete env.PORT;
  delete env.REDIS_URL;
  Object.assign(env, extraEnv);
  const { port, child, tail } = await children.fork(name, path.join(ROOT, 'bench/chat-baseline.mjs'), [], { cwd: ROOT, env });
  return { base: `http://127.0.0.1:${port}`, pid: child.pid, logTail: () => [...tail] };
}

// autocannon's HTTP parser (http-parser-js) is not told a response answers HEAD, so a HEAD answer without
// Content-Length (Fastify's empty 200) waits forever for a body and nothing is counted. Telling the parser
// "no body" from onHeadersComplete, as Node's own client does for HEAD, fixes it. setupClient runs before
// autocannon installs its handler, so the handler is wrapped as it is assigned.
const { HTTPParser } = createRequire(createRequire(import.meta.url).resolve('autocannon'))('http-parser-js');
function headResponsesHaveNoBody(client) {
  let handler;
  Object.defineProperty(client.parser, HTTPParser.kOnHeadersComplete, {
    configurable: true,
    get: () => handler,
    set: (fn) => {
      handler = (...args) => {
        fn(...args);
        return true; // skip body
      };
    },
  });
}

function cannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

async function load(target, base) {
  const method = target.method ?? 'GET';
  const url = base + target.path;
  const headers = { ...(target.headers ?? {}), ...((await target.prepare?.(base)) ?? {}) };
  let body = target.body;
  if (body !== undefined && typeof body !== 'string') {
    body = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const opts = { url, method, headers, body, connections: target.connections ?? CONNECTIONS, pipelining: 1, timeout: 10 };
  if (method === 'HEAD') opts.setupClient = headResponsesHaveNoBody;
  if (target.bodies) {
    // A different JSON body per request, in turn (e.g. one slot after another).
    const bodies = (await target.bodies(base, headers)).map((b) => JSON.stringify(b));
    headers['content-type'] ??= 'application/json';
    body = bodies[0];
    let next = 0;
    opts.requests = [{ setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }) }];
  }

  // One request first, so a broken route is named before ten seconds of 404s.
  const probe = await fetch(url, { method, headers, body });
  await probe.arrayBuffer();
  if (probe.status < 200 || probe.status > 299) log(`warning: ${method} ${target.path} answers ${probe.status} before load`);

  if (WARMUP > 0) await cannon({ ...opts, duration: WARMUP });
  const r = await cannon({ ...opts, duration: DURATION });
  return {
    name: target.name,
    method,
    server: target.server,
    path: target.path,
    reqPerSec: r.requests.average,
    requests: r.requests.total,
    latencyMs: { mean: r.latency.average, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    throughputBytesPerSec: r.throughput.average,
    ...(target.verify ? { verify: await target.verify(base) } : {}),
  };
}

function printTable(rows) {
  const head = ['target', 'req/s', 'p99 ms', 'non-2xx', 'errors', 'vs baseline'];
  const body = rows.map((r) => [
    `${r.name} (${r.method} ${r.path})`,
    fmtInt(r.reqPerSec),
    String(r.latencyMs.p99),
    fmtInt(r.non2xx),
    fmtInt(r.errors + r.timeouts),
    r.ratio === undefined ? '' : `${(r.ratio * 100).toFixed(0)}% of ${r.baseline}`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
}

const webStamp = () => (existsSync(WEB_INDEX) ? statSync(WEB_INDEX).mtimeMs : null);

async function measureBundle(base, webStampAtStart) {
  const now = webStamp();
  if (webStampAtStart === null || now !== webStampAtStart) {
    const why =
      now === null
        ? 'the web app is not built (apps/web/dist/index.html is missing)'
        : webStampAtStart === null
          ? 'the web build appeared after the server had started, so the server does not serve it; run the bench again'
          : 'the web app was rebuilt while the bench ran (the server still serves the old index.html); run the bench again';
    log(`sign-in page JavaScript: SKIPPED — ${why}`);
    return { skipped: why };
  }
  const { measurePageScripts } = await import('../bench/bundle.mjs');
  const m = await measurePageScripts(base + SIGN_IN_PATH);
  // A page that failed to load measures nothing: that is not a pass.
  const notJs = m.files.filter((f) => !f.isJavaScript);
  const valid = m.status === 200 && m.files.length > 0 && notJs.length === 0;
  const pass = valid && m.totalGzipBytes <= BUNDLE_BUDGET_KB * 1024;
  console.log(`\nJavaScript loaded by ${SIGN_IN_PATH} (HTTP ${m.status}), gzip -9 per file:`);
  const w = Math.max(4, ...m.files.map((f) => f.path.length));
  for (const f of m.files) console.log(`  ${f.path.padEnd(w)}  ${kb(f.gzipBytes).padStart(7)} KB gz  (${kb(f.bytes)} KB raw)`);
  console.log(`  ${'total'.padEnd(w)}  ${kb(m.totalGzipBytes).padStart(7)} KB gz  (${kb(m.totalBytes)} KB raw, ${m.files.length} files)`);
  if (m.status !== 200) log(`warning: ${SIGN_IN_PATH} answered HTTP ${m.status}`);
  if (m.files.length === 0) log('warning: the page loaded no JavaScript');
  for (const f of notJs) log(`warning: ${f.path} is served as "${f.contentType}", not JavaScript`);
  for (const e of m.pageErrors) log(`warning: page error: ${e}`);
  console.log(
    `${pass ? 'PASS' : 'FAIL'}  sign-in page JavaScript: ${kb(m.totalGzipBytes)} KB gzipped (budget ≤ ${BUNDLE_BUDGET_KB} KB)` +
      (valid ? '' : ' — not measured: the page did not load its scripts'),
  );
  return { ...m, budgetBytes: BUNDLE_BUDGET_KB * 1024, pass };
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- main
/** bench/sources.ts through tsx (it drives the tests' EHR, TypeScript): its progress shown, its one JSON line answered. */
function runSources(base) {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'bench/sources.ts'), base], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1);
      if (code === 0 && line) resolve(JSON.parse(line));
      else reject(new Error(`bench/sources.ts exited with ${code}`));
    });
  });
}

async function main() {
  validateTargets();
  await build();

  db = new BenchDatabase(ADMIN_URL);
  try {
    await db.create();
  } catch (err) {
    throw new Error(`cannot create database ${db.name} on ${redact(ADMIN_URL)}: ${err.message}`, { cause: err });
  }
  log(`database ${db.name} created on ${redact(ADMIN_URL)}`);

  // The server reads the web build (index.html) once, at start.
  const webStampAtStart = webStamp();
  const app = await startServer(db.url);
  log(`server ready at ${app.base} (NODE_ENV=production, migrated and seeded)`);
  const chosen = selected(targets);
  const chosenChat = selected(chatScenarios);
  const chosenVisits = selected(visitScenarios);
  if (ONLY.length > 0) {
    const names = [...chosen, ...chosenChat, ...chosenVisits].map((t) => t.name);
    const extra = [bundleSelected() && 'the sign-in page JavaScript', lighthouseSelected() && 'Lighthouse'].filter(Boolean);
    log(`BENCH_ONLY=${ONLY.join(',')}: ${[...names, ...extra].join(', ') || 'no target'}`);
  }
  // Only the baselines a chosen target uses. The select baseline reads the organisation the server has just seeded.
  const bases = { app: app.base };
  const modes = ['bare', 'select'].filter((mode) => chosen.some((t) => t.server === mode));
  await Promise.all(modes.map(async (mode) => (bases[mode] = await startBaseline(mode, db.url))));
  if (modes.length) log(`baselines ready: ${modes.map((m) => `${m === 'bare' ? 'bare JSON' : 'bare PK select'} at ${bases[m]}`).join(', ')}`);

  const rows = [];
  const checks = [];
  let lighthouse = { skipped: `not chosen by BENCH_ONLY=${ONLY.join(',')}` };
  if (lighthouseSelected()) {
    if (webStamp() === null) {
      lighthouse = { skipped: 'the web app is not built' };
      log('Lighthouse: SKIPPED — the web app is not built');
    } else {
      const { runLighthouse, printLighthouse } = await import('../bench/lighthouse.mjs');
      log(`Lighthouse: ${LIGHTHOUSE_RUNS} run(s) per page, mobile, simulated throttling, cold HTTP cache`);
      lighthouse = await runLighthouse({ base: app.base, runs: LIGHTHOUSE_RUNS, log, reportDir: path.join(path.dirname(RESULTS_FILE), 'lighthouse') });
      checks.push(...printLighthouse(lighthouse));
      console.log('');
    }
  }
  if (chosen.length > 0) {
    log(`autocannon: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s per target, one target at a time\n`);
    for (const target of chosen) {
      process.stdout.write(`[bench] ${target.name}: ${target.method ?? 'GET'} ${target.path} … `);
      const row = await load(target, bases[target.server]);
      const base = target.baseline && rows.find((r) => r.name === target.baseline);
      if (base) {
        row.baseline = base.name;
        row.ratio = base.reqPerSec > 0 ? row.reqPerSec / base.reqPerSec : 0;
        if (target.minRatio !== undefined) row.minRatio = target.minRatio;
      }
      console.log(`${fmtInt(row.reqPerSec)} req/s, p99 ${row.latencyMs.p99} ms`);
      if (target.maxP99Ms !== undefined) row.maxP99Ms = target.maxP99Ms;
      rows.push(row);
    }

    console.log('');
    printTable(rows);
    console.log('');
    for (const r of rows.filter((row) => row.minRatio !== undefined)) {
      const pass = r.ratio >= r.minRatio;
      const base = rows.find((row) => row.name === r.baseline);
      checks.push({ name: `${r.name} >= ${r.minRatio * 100}% of ${r.baseline}`, pass, value: r.ratio, threshold: r.minRatio });
      console.log(
        `${pass ? 'PASS' : 'FAIL'}  ${r.name}: ${fmtInt(r.reqPerSec)} req/s = ${(r.ratio * 100).toFixed(0)}% of ${r.baseline} ` +
          `(${fmtInt(base.reqPerSec)} req/s); target ≥ ${(r.minRatio * 100).toFixed(0)}%`,
      );
    }

    for (const r of rows.filter((row) => row.maxP99Ms !== undefined)) {
      const pass = r.latencyMs.p99 <= r.maxP99Ms;
      checks.push({ name: `${r.name} p99 <= ${r.maxP99Ms} ms`, pass, value: r.latencyMs.p99, threshold: r.maxP99Ms });
      console.log(`${pass ? 'PASS' : 'FAIL'}  ${r.name}: p99 ${r.latencyMs.p99} ms; target ≤ ${r.maxP99Ms} ms`);
    }

    for (const r of rows.filter((row) => row.verify)) {
      checks.push({ name: `${r.name}: ${r.verify.name}`, pass: r.verify.pass, value: r.verify.value, threshold: r.verify.threshold });
      console.log(`${r.verify.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.verify.detail}`);
    }
  }

  /** A socket part's tables, then its checks (kept) and skipped scenarios. */
  const reportPart = (part, printTables) => {
    console.log('');
    printTables(part);
    for (const c of part.checks) {
      checks.push({ name: c.name, pass: c.pass, value: c.value, threshold: c.threshold });
      console.log(`${c.pass ? 'PASS' : 'FAIL'}  ${c.line}`);
    }
    for (const s of part.skipped) console.log(`SKIP  ${s.name}: ${s.why}`);
  };
  // The chat's and the visits' other processes (two servers on Redis, the bare relays): started once, by name, and shared.
  const started = new Map();
  const once = (key, start) => {
    if (!started.has(key)) started.set(key, start());
    return started.get(key);
  };
  const sockets = {
    app,
    databaseUrl: db.url,
    startServer: (name, env) => once(`server ${name}`, () => startServer(db.url, name, { SEED_DEMO: 'false', ...env })),
    startBareRelay: (name, env) => once(`relay ${name}`, () => startBareRelay(name, env)),
    log,
  };
  let chat = null;
  if (chosenChat.length > 0) {
    console.log('');
    chat = await runChatBench({
      ...sockets,
      chosen: chosenChat,
      durationS: DURATION,
      warmupS: WARMUP,
    });
    reportPart(chat, printChatTables);
  }

  let visits = null;
  if (chosenVisits.length > 0) {
    console.log('');
    visits = await runVisitsBench({ ...sockets, chosen: chosenVisits });
    reportPart(visits, printVisitsTable);
  }

  let sources = { skipped: `not chosen by BENCH_ONLY=${ONLY.join(',')}` };
  if (sourcesSelected()) {
    console.log('');
    sources = await runSources(app.base);
    console.log(
      `\nConnected source, ${sources.resources} resources (${sources.records} records): first sync ${(sources.firstSyncMs / 1000).toFixed(1)} s, ` +
        `re-sync with nothing new ${(sources.resyncNothingNewMs / 1000).toFixed(2)} s, full re-sync ${(sources.fullResyncMs / 1000).toFixed(1)} s; ` +
        `the same records as JSON (FHIR export, ${(sources.exportBytes / 1024 / 1024).toFixed(1)} MB) ${sources.exportJsonMs} ms`,
    );
    console.log(`Longest ping answer during the syncs ${sources.stallMaxMs} ms (p99 ${sources.stallP99Ms} ms, ${sources.pings} pings); idle ${sources.pingIdleMaxMs} ms (p99 ${sources.pingIdleP99Ms} ms)`);
    for (const [key, goal] of Object.entries(SOURCES_GOALS)) {
      const pass = sources[key] <= goal;
      checks.push({ name: `sources ${key} <= ${goal}`, pass, value: sources[key], threshold: goal });
      console.log(`${pass ? 'PASS' : 'FAIL'}  sources: ${key} ${sources[key]} ms; target ≤ ${goal} ms`);
    }
  }

  let bundle = { skipped: `not chosen by BENCH_ONLY=${ONLY.join(',')}` };
  if (bundleSelected()) {
    bundle = await measureBundle(app.base, webStampAtStart);
    if (bundle.pass !== undefined) {
      checks.push({ name: `sign-in page JavaScript <= ${BUNDLE_BUDGET_KB} KB gzipped`, pass: bundle.pass, value: bundle.totalGzipBytes, threshold: bundle.budgetBytes });
    }
  }

  const results = {
    date: new Date().toISOString(),
    commit: gitCommit(),
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? null,
    settings: { connections: CONNECTIONS, durationS: DURATION, warmupS: WARMUP },
    targets: rows,
    chat,
    visits,
    sources,
    checks,
    bundle,
    lighthouse,
  };
  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await writeFile(RESULTS_FILE, JSON.stringify(results, null, 2) + '\n');
  log(`results written to ${path.relative(ROOT, RESULTS_FILE)}`);
  return checks.every((c) => c.pass);
}

let exitCode = 0;
try {
  const allPass = await main();
  if (!allPass && process.env.BENCH_STRICT === '1') exitCode = 1;
} catch (err) {
  console.error(`\n[bench] failed: ${err.message}`);
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
