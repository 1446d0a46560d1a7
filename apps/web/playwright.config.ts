import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 18765);
process.env.E2E_MAIL_PORT ??= String(PORT + 2);

/** Journeys in Debian's Chromium against the real built server, on a fresh PGlite database. */
export default defineConfig({
  testDir: './e2e',
  outputDir: '../../test-results',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'npx tsx e2e/start-server.ts',
    url: `http://127.0.0.1:${PORT}/api/health`,
    env: { E2E_PORT: String(PORT), E2E_MAIL_PORT: String(PORT + 2) },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
