// The connected sources' part of `npm run bench` (issue 28): "a first sync of a patient with 5,000
// resources (time; goal under 60 s here), a re-sync with nothing new (goal under 5 s), and the longest
// event-loop stall during the sync (goal under 50 ms), beside the JSON list of the same records".
//
// Run by scripts/bench.mjs through tsx (it drives the tests' EHR sign-in, a TypeScript module):
//   tsx bench/sources.ts <server base URL>
// The tests' EHR (apps/server/test/ehr: oidc-provider and a FHIR R4 server) runs as its own process on
// loopback with BENCH_SOURCES_RESOURCES resources (default 5,000) for its patient. The demo
// organisation's admin adds it as a source; the demo patient connects through the EHR's sign-in and
// consent (plain HTTP, as a browser would); then:
//   first sync     from the callback to "up to date", every resource read page by page and written
//   stall          meanwhile, HEAD /api/ping every 25 ms: the longest answer (and p99), the server's loop held
//   re-sync        "Sync now" with full=false (the daily sync: only what changed, nothing here), and a full one
//   baseline       the same records as JSON: GET /api/v1/fhir/export/ of the patient (median of 3)
// Progress goes to stderr; the result, one JSON line, to stdout.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import readline from 'node:readline';
import { authorizeByHttp } from '../apps/server/test/ehr/test-ehr';

const ROOT = path.resolve(import.meta.dirname, '..');
const base = process.argv[2];
if (!base) throw new Error('usage: tsx bench/sources.ts <server base URL>');
const RESOURCES = Number(process.env.BENCH_SOURCES_RESOURCES ?? 5_000);
const PASSWORD = 'Healthbook#2026';
const log = (msg: string) => process.stderr.write(`[bench] sources: ${msg}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call<T>(method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; json: T; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}), 'accept-language': 'en' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  return { status: res.status, json: (text ? JSON.parse(text) : null) as T, ms };
}

async function signIn(email: string): Promise<string> {
  const res = await call<{ access: string }>('POST', '/api/v1/login/', undefined, { email, password: PASSWORD, org: 'healthbook' });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status}`);
  return res.json.access;
}

/** The tests' EHR in its own process; answers its addresses and a way to stop it. */
async function startEhr(redirectUris: string[]) {
  const uris = redirectUris.flatMap((uri) => ['--redirect-uri', uri]);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/test/ehr/cli.ts', '--port', '0', '--client-id', 'bench', ...uris, '--resources', String(RESOURCES)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the EHR exited (${code}) before it was ready`)));
  });
  const ehr = JSON.parse(first) as { origin: string; fhirBase: string };
  return { ...ehr, stop: () => child.kill('SIGTERM') };
}

interface Connection {
  id: number;
  status: string;
  records: number;
  last_run: { full: boolean; added: number; updated: number; unchanged: number; documents: number } | null;
}

/** Polls the patient's connections until none is syncing; answers the connection. */
async function untilSynced(token: string): Promise<Connection> {
  for (;;) {
    const { json } = await call<{ connections: Connection[] }>('GET', '/api/v1/sources/', token);
    const connection = json.connections[0];
    if (connection && connection.status !== 'pending' && connection.status !== 'syncing') return connection;
    await sleep(100);
  }
}

/** Runs `work` while pinging the server every 25 ms; answers its result, its time and the pings' longest and p99 answer. */
async function whilePinging<T>(work: () => Promise<T>) {
  let done = false;
  const answers: number[] = [];
  const pinger = (async () => {
    while (!done) {
      const sent = performance.now();
      await fetch(`${base}/api/ping`, { method: 'HEAD' });
      answers.push(performance.now() - sent);
      await sleep(25);
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, answers };
  } finally {
    done = true;
    await pinger;
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

// The ping's own cost with nothing running: what a stall is compared with.
const idle = await whilePinging(() => sleep(2_000));
// The server names its redirect URI after its PUBLIC_URL (by default http://localhost:<port>), the bench reaches it by address.
const callbackPath = '/healthbook/health-record/connections/callback';
const ehr = await startEhr([`${base}${callbackPath}`, `${base.replace('127.0.0.1', 'localhost')}${callbackPath}`]);
try {
  log(`EHR at ${ehr.fhirBase} with ${RESOURCES} resources for its patient`);
  const admin = await signIn('admin@healthbook.example');
  const patient = await signIn('patient@healthbook.example');
  const source = await call<{ id: number }>('POST', '/api/v1/admin/sources/', admin, { name: 'Bench EHR', fhir_base_url: ehr.fhirBase, client_id: 'bench' });
  if (source.status !== 201) throw new Error(`adding the source: ${source.status} ${JSON.stringify(source.json)}`);
  const started = await call<{ authorize_url: string }>('POST', '/api/v1/sources/connect/', patient, { source_id: source.json.id });
  const back = await authorizeByHttp(ehr, started.json.authorize_url, { username: 'alice', password: 'alice-password', consent: 'allow' });

  const first = await whilePinging(async () => {
    const connected = await call<Connection>('POST', '/api/v1/sources/callback/', patient, Object.fromEntries(back.searchParams));
    if (connected.status !== 200) throw new Error(`callback: ${connected.status} ${JSON.stringify(connected.json)}`);
    return untilSynced(patient);
  });
  log(`first sync: ${first.result.records} records in ${(first.ms / 1000).toFixed(1)} s (${first.result.status})`);

  const resync = async (full: boolean) => {
    const run = await whilePinging(async () => {
      await call('POST', `/api/v1/sources/connections/${first.result.id}/sync/?full=${full}`, patient);
      return untilSynced(patient);
    });
    log(`re-sync (${full ? 'full' : 'only what changed'}): ${(run.ms / 1000).toFixed(2)} s, ${JSON.stringify(run.result.last_run)}`);
    return run;
  };
  const incremental = await resync(false);
  const full = await resync(true);

  const exports: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const started2 = performance.now();
    const res = await fetch(`${base}/api/v1/fhir/export/`, { headers: { authorization: `Bearer ${patient}` } });
    bytes = (await res.arrayBuffer()).byteLength;
    exports.push(performance.now() - started2);
  }
  const exportMs = percentile(exports, 50);
  log(`baseline: the same records as JSON (FHIR export, ${(bytes / 1024 / 1024).toFixed(1)} MB): ${exportMs.toFixed(0)} ms`);

  const stalls = [...first.answers, ...incremental.answers, ...full.answers];
  const result = {
    resources: RESOURCES,
    records: first.result.records,
    firstSyncMs: Math.round(first.ms),
    resyncNothingNewMs: Math.round(incremental.ms),
    fullResyncMs: Math.round(full.ms),
    exportJsonMs: Math.round(exportMs),
    exportBytes: bytes,
    pingIdleMaxMs: Math.round(Math.max(...idle.answers)),
    pingIdleP99Ms: Math.round(percentile(idle.answers, 99)),
    stallMaxMs: Math.round(Math.max(...stalls)),
    stallP99Ms: Math.round(percentile(stalls, 99)),
    pings: stalls.length,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  ehr.stop();
}
