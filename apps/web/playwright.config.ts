import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './e2e/chromium';

const PORT = Number(process.env.E2E_PORT ?? 18765);
/**
 * The live chat's journeys (the patient's Live Help, the staff's chat console) share the demo
 * patient, who has one open chat at a time, and the demo peer coach's queue: they run one at a time.
 */
const CHAT_JOURNEYS = /\/chat(-[a-z-]+)?\.spec\.ts$/;
// The mail port follows E2E_PORT unless given; the journeys (mailbox.ts) and the web server read the same one.
process.env.E2E_MAIL_PORT ??= String(PORT + 2);
// The server's DATA_DIR, known to the journeys too: operator commands (npm run cli) reach the running server through it.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'hb-e2e-'));

/**
 * Journeys in Debian's Chromium against the product started as `npm start` starts it (see
 * e2e/start-server.ts), on a fresh PGlite database. scripts/test-e2e.mjs builds first.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: '../../test-results',
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Recording every journey's trace cost a good part of the run's CPU: CI retries a failure once, with its trace.
    trace: 'on-first-retry',
    // The system's "reduce motion" (the app then has no transitions or ripples, lib/theme.ts): a
    // journey waits for no animation, and the browser paints less.
    reducedMotion: 'reduce',
    launchOptions: CHROMIUM,
  },
  // The chat's journeys first: they take one worker at a time, so after the others they left the
  // second core idle for minutes at the end; first, they run beside the rest.
  projects: [
    { name: 'chat', testMatch: CHAT_JOURNEYS, fullyParallel: false, workers: 1 },
    { name: 'journeys', testIgnore: CHAT_JOURNEYS },
  ],
  webServer: {
    // exec: the process Playwright signals is start-server itself, not a shell in front of it.
    command: 'exec node --import tsx e2e/start-server.ts',
    url: `http://127.0.0.1:${PORT}/api/health`,
    env: { E2E_PORT: String(PORT), E2E_MAIL_PORT: process.env.E2E_MAIL_PORT, E2E_DATA_DIR: process.env.E2E_DATA_DIR },
    reuseExistingServer: false,
    // The product builds nothing here (scripts/test-e2e.mjs built it), but a loaded machine can take
    // over a minute to start it.
    timeout: 180_000,
    // Without this Playwright ends the web server with SIGKILL: no graceful stop, DATA_DIR left behind.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
