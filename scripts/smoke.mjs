#!/usr/bin/env node
// `npm run test:smoke`: the first command README gives, as a user types it. From this checkout,
// `npm start` (the real npm script) on a free port and a new empty DATA_DIR, with no DATABASE_URL,
// SMTP_URL or REDIS_URL; waits for GET /api/health (a fresh clone builds the web app and the server
// first); opens the sign-in page in Chromium until its "Sign In" button shows with no page error;
// then SIGTERM to npm, which must exit 0 within 15 s leaving no process behind and the port free.
// Prints each phase's duration. On any failure: one clear message, children killed, exit 1.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../bench/bundle.mjs';
import { freePort, waitForHttp } from '../bench/support.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const READY_TIMEOUT_MS = 10 * 60_000; // a fresh clone builds first
const STOP_TIMEOUT_MS = 15_000;

const log = (msg) => console.log(`[smoke] ${msg}`);
const phases = [];

/** Runs one named phase and records how long it took, failed or not. */
async function phase(name, fn) {
  const started = performance.now();
  let ok = false;
  try {
    const result = await fn();
    ok = true;
    return result;
  } finally {
    const seconds = (performance.now() - started) / 1000;
    phases.push({ name, seconds, ok });
    log(`${ok ? 'done' : 'FAILED'}: ${name} (${seconds.toFixed(1)} s)`);
  }
}

// ---------------------------------------------------------------- what must go, however we leave
let npm;
let browser;
let dataDir;

const running = () => npm && npm.exitCode === null && npm.signalCode === null;
/** Whether any process is left in npm's process group (npm, start.mjs, the build, the server). */
function groupAlive() {
  if (!npm?.pid) return false;
  try {
    process.kill(-npm.pid, 0);
    return true;
  } catch {
    return false;
  }
}
function killGroup(signal) {
  try {
    process.kill(-npm.pid, signal);
  } catch {
    // gone
  }
}

async function cleanup() {
  await browser?.close().catch(() => undefined);
  if (groupAlive()) {
    killGroup('SIGTERM');
    for (let i = 0; i < 50 && groupAlive(); i++) await sleep(100);
    if (groupAlive()) killGroup('SIGKILL');
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
}
let interrupted = false;
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\n[smoke] ${signal}: stopping npm start…`);
    void cleanup().finally(() => process.exit(code));
  });
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

// ---------------------------------------------------------------- the phases
async function main() {
  const chromiumReady = spawnSync('bash', [path.join(ROOT, 'scripts/ensure-chromium.sh')], { cwd: ROOT, stdio: 'inherit' });
  if (chromiumReady.status !== 0) throw new Error('Chromium is missing (scripts/ensure-chromium.sh failed)');

  const port = await freePort();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'hb-smoke-'));
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' };
  log(`npm start with PORT=${port} DATA_DIR=${dataDir} (no DATABASE_URL, SMTP_URL or REDIS_URL)`);

  await phase('npm start until GET /api/health answers 200', async () => {
    // Its own process group: whatever happens, everything it starts can be found and stopped.
    npm = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'inherit', 'inherit'] });
    npm.on('error', (err) => log(`cannot run npm: ${err.message}`));
    try {
      await waitForHttp(`${base}/api/health`, npm, READY_TIMEOUT_MS);
    } catch (err) {
      if (running()) throw err;
      throw new Error(`npm start exited (${npm.signalCode ?? `code ${npm.exitCode}`}) before GET /api/health answered 200`, { cause: err });
    }
  });

  await phase('sign-in page in Chromium until "Sign In" shows', async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const response = await page.goto(`${base}/healthbook/login`);
    if (response?.status() !== 200) throw new Error(`GET /healthbook/login answered ${response?.status() ?? 'nothing'}`);
    try {
      await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor({ state: 'visible', timeout: 30_000 });
    } catch (err) {
      const also = pageErrors.length ? `; page errors: ${pageErrors.join(' | ')}` : '';
      throw new Error(`the sign-in page showed no "Sign In" button: ${err.message.split('\n')[0]}${also}`, { cause: err });
    }
    if (pageErrors.length) throw new Error(`the sign-in page raised errors: ${pageErrors.join(' | ')}`);
    await browser.close();
    browser = undefined;
  });

  await phase('SIGTERM to npm until it exits', async () => {
    const exited = new Promise((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal })));
    npm.kill('SIGTERM');
    const result = await Promise.race([exited, sleep(STOP_TIMEOUT_MS, null, { ref: false })]);
    if (!result) throw new Error(`npm start did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM`);
    if (result.code !== 0) throw new Error(`npm start exited with ${result.signal ?? `code ${result.code}`} after SIGTERM, not code 0`);
    // npm waits for its child, but the server is a grandchild: give the group a moment, then insist.
    for (let i = 0; i < 20 && groupAlive(); i++) await sleep(100);
    if (groupAlive()) throw new Error('npm exited but left processes behind in its process group');
    if (!(await portIsFree(port))) throw new Error(`port ${port} is still taken after npm exited`);
  });
}

let failure;
try {
  await main();
} catch (err) {
  failure = err;
} finally {
  await cleanup();
}
console.log('\n[smoke] phase durations:');
for (const p of phases) console.log(`  ${p.ok ? 'ok    ' : 'FAILED'}  ${p.seconds.toFixed(1).padStart(6)} s  ${p.name}`);
if (failure) {
  console.error(`\n[smoke] FAILED: ${failure.message}`);
  process.exit(1);
}
log('PASS: npm start serves the sign-in page and stops cleanly on SIGTERM');
