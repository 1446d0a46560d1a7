#!/usr/bin/env node
// `npm run screenshots`: the pictures of docs/screenshots/. Starts the product the way the browser
// journeys do (scripts/start.mjs, which builds what is stale, on a free port with a new empty
// DATA_DIR and the demo data; no DATABASE_URL, SMTP_URL, REDIS_URL or STORAGE_URL), signs in through
// the sign-in page as the demo patient (and the organisation admin for the admin's page), and saves
// each page on a desktop (1280x800) and a phone (390x844) in Debian's Chromium. Then stops the server
// with SIGTERM and removes DATA_DIR. SCREENSHOTS_PORT picks the port; SCREENSHOTS_DIR the folder.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../bench/bundle.mjs';
import { freePort, waitForHttp } from '../bench/support.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.resolve(process.env.SCREENSHOTS_DIR ?? path.join(ROOT, 'docs/screenshots'));
const PASSWORD = 'Healthbook#2026';
const PATIENT = 'patient@healthbook.example';
const ADMIN = 'admin@healthbook.example';
const CLIENT_ID = 'healthbook';

const VIEWPORTS = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};

const log = (msg) => console.log(`[screenshots] ${msg}`);

let server;
let browser;
let dataDir;

async function stop() {
  await browser?.close().catch(() => undefined);
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await Promise.race([exited, sleep(15_000)]);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true }).catch(() => undefined);
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop().finally(() => process.exit(1)));

/** The first record of a category of the signed-in patient, through the API (its id for the detail page). */
async function firstRecordId(base, email, category) {
  const login = await fetch(`${base}/api/v1/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, org: CLIENT_ID }),
  });
  if (!login.ok) throw new Error(`API sign-in of ${email} answered ${login.status}`);
  const { access } = await login.json();
  const list = await fetch(`${base}/api/v1/hr/${category}/?page_size=1&ordering=-id`, { headers: { authorization: `Bearer ${access}` } });
  if (!list.ok) throw new Error(`GET /api/v1/hr/${category}/ answered ${list.status}`);
  const { results } = await list.json();
  if (!results.length) throw new Error(`the demo patient has no ${category} record`);
  return results[0].id;
}

/** Waits for the page to settle: no request in flight, no progress indicator, fonts loaded. */
async function settle(page) {
  await page.waitForLoadState('networkidle');
  await page.locator('[role="progressbar"]').first().waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
  await page.evaluate('document.fonts.ready.then(() => true)');
  await sleep(400);
}

async function shoot(page, name, device) {
  await settle(page);
  const file = path.join(OUT, `${name}-${device}.png`);
  await page.screenshot({ path: file, animations: 'disabled' });
  log(`saved ${path.relative(ROOT, file)}`);
}

async function signIn(page, email) {
  await page.goto(`/${CLIENT_ID}/login`);
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(new RegExp(`/${CLIENT_ID}/dashboard$`));
  await page.getByRole('heading', { level: 1, name: /^Hello, / }).waitFor();
}

async function main() {
  const port = process.env.SCREENSHOTS_PORT ? Number(process.env.SCREENSHOTS_PORT) : await freePort();
  const base = `http://127.0.0.1:${port}`;
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'hb-screenshots-'));
  mkdirSync(OUT, { recursive: true });
  log(`starting the product on ${base} with DATA_DIR=${dataDir}`);
  server = spawn(process.execPath, [path.join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      STORAGE_URL: '',
      PUBLIC_URL: base,
      AUTH_RATE_LIMIT: '1000',
    },
  });
  await waitForHttp(`${base}/api/health`, server, 10 * 60_000);

  const recordId = await firstRecordId(base, PATIENT, 'condition');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });

  for (const [device, options] of Object.entries(VIEWPORTS)) {
    const context = await browser.newContext({ ...options, baseURL: base, locale: 'en-US', timezoneId: 'Europe/Athens', reducedMotion: 'reduce', colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`/${CLIENT_ID}/login`);
    await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor();
    await shoot(page, 'sign-in', device);

    await signIn(page, PATIENT);
    await shoot(page, 'dashboard', device);
    const pages = [
      ['health-records', `/${CLIENT_ID}/health-record`],
      ['records-list', `/${CLIENT_ID}/health-record/condition`],
      ['record-detail', `/${CLIENT_ID}/health-record/condition/${recordId}`],
      ['sharing', `/${CLIENT_ID}/sharing`],
      ['calendar', `/${CLIENT_ID}/calendar`],
    ];
    for (const [name, url] of pages) {
      await page.goto(url);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await shoot(page, name, device);
    }
    await context.close();

    const adminContext = await browser.newContext({ ...options, baseURL: base, locale: 'en-US', timezoneId: 'Europe/Athens', reducedMotion: 'reduce', colorScheme: 'light' });
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, ADMIN);
    await adminPage.goto(`/${CLIENT_ID}/addUser/home`);
    await adminPage.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    await adminPage.getByRole('table').getByRole('row').nth(1).waitFor();
    await shoot(adminPage, 'admin-people', device);
    await adminContext.close();
  }
}

let failure;
try {
  await main();
} catch (err) {
  failure = err;
} finally {
  await stop();
}
if (failure) {
  console.error(`[screenshots] FAILED: ${failure.stack ?? failure.message}`);
  process.exit(1);
}
log(`done: ${OUT}`);
