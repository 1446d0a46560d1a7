// Lighthouse (12, mobile, simulated throttling) on the signed-in pages, for scripts/bench.mjs.
// Debian's Chromium is started by chrome-launcher; playwright-core attaches to it over CDP to sign
// in once through the sign-in form (the access token in local storage, the refresh token in its
// HttpOnly cookie) and to empty the HTTP cache before every run. Lighthouse keeps the storage
// (disableStorageReset) so each run is signed in with a cold cache. Median of N runs per page.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './bundle.mjs';

/** The pages measured (issue 27 §6): the sign-in page signed out, the others signed in as the demo patient. */
export const LIGHTHOUSE_PAGES = [
  { name: 'dashboard', path: '/healthbook/dashboard' },
  { name: 'health record', path: '/healthbook/health-record' },
  { name: 'conditions', path: '/healthbook/health-record/condition' },
  { name: 'calendar', path: '/healthbook/calendar' },
  { name: 'document center', path: '/healthbook/health-vault' },
  { name: 'care club', path: '/healthbook/careclub' },
  { name: 'surveys', path: '/healthbook/mental-health-survey' },
  { name: 'symptom checker', path: '/healthbook/symptom-checker' },
];

/** What each signed-in page should reach. */
export const LIGHTHOUSE_GOALS = { performance: 90, lcpMs: 2500, cls: 0.1, tbtMs: 200, jsKb: 250, bestPractices: 100 };

const SIGN_IN = { email: 'patient@healthbook.example', password: 'Healthbook#2026', path: '/healthbook/login' };

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** The figures of one Lighthouse result. */
function figures(lhr) {
  const audits = lhr.audits;
  const requests = audits['network-requests']?.details?.items ?? [];
  const scripts = requests.filter((r) => r.resourceType === 'Script');
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    bestPractices: Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? NaN,
    tbtMs: audits['total-blocking-time']?.numericValue ?? NaN,
    jsKb: scripts.reduce((s, r) => s + (r.transferSize ?? 0), 0) / 1024,
    jsKbRaw: scripts.reduce((s, r) => s + (r.resourceSize ?? 0), 0) / 1024,
    requests: requests.length,
    finalUrl: lhr.finalDisplayedUrl ?? lhr.finalUrl,
    failedBestPractices: Object.values(lhr.categories['best-practices']?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id),
    runtimeError: lhr.runtimeError?.message,
  };
}

/** The median of each figure over the runs (a run Lighthouse could not trace counts for none), and the failed best-practice audits of every run. */
function summarise(runs) {
  const traced = runs.filter((r) => !r.runtimeError);
  const pick = (k) => median((traced.length ? traced : runs).map((r) => r[k]));
  return {
    performance: pick('performance'),
    bestPractices: pick('bestPractices'),
    lcpMs: pick('lcpMs'),
    cls: pick('cls'),
    tbtMs: pick('tbtMs'),
    jsKb: pick('jsKb'),
    jsKbRaw: pick('jsKbRaw'),
    requests: pick('requests'),
    finalUrls: [...new Set(runs.map((r) => r.finalUrl))],
    failedBestPractices: [...new Set(runs.flatMap((r) => r.failedBestPractices))],
    errors: runs.map((r) => r.runtimeError).filter(Boolean),
  };
}

/**
 * Runs Lighthouse `runs` times on each page of `pages` at `base`.
 * The last run's full report of each page is written to `reportDir` (when given) as <page>.json.
 * @param {{ base: string, runs?: number, pages?: typeof LIGHTHOUSE_PAGES, log?: (line: string) => void, reportDir?: string }} options
 */
export async function runLighthouse({ base, runs = 3, pages = LIGHTHOUSE_PAGES, log = () => undefined, reportDir }) {
  if (reportDir) await mkdir(reportDir, { recursive: true });
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: [...CHROMIUM_ARGS, '--headless=new'].filter((f) => f !== '--headless'),
    logLevel: 'silent',
  });
  let browser;
  try {
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const context = browser.contexts()[0];
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const clearCache = () => cdp.send('Network.clearBrowserCache');

    const measure = async (target) => {
      const results = [];
      for (let i = 0; i < runs; i++) {
        await clearCache();
        const { lhr } = await lighthouse(base + target.path, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'best-practices'],
          disableStorageReset: true,
        });
        results.push(figures(lhr));
        if (reportDir && i === runs - 1) await writeFile(path.join(reportDir, `${target.name.replace(/\W+/g, '-')}.json`), JSON.stringify(lhr));
      }
      const row = { name: target.name, path: target.path, ...summarise(results), runs: results };
      log(`lighthouse ${target.name}: performance ${row.performance}, LCP ${(row.lcpMs / 1000).toFixed(1)} s, ${row.jsKb.toFixed(0)} KB JS`);
      return row;
    };

    const rows = [];
    // The sign-in page first, signed out (the reference the signed-in pages are compared with).
    rows.push(await measure({ name: 'sign-in (signed out)', path: SIGN_IN.path }));

    await page.goto(base + SIGN_IN.path, { waitUntil: 'load' });
    await page.fill('input[autocomplete="email"]', SIGN_IN.email);
    await page.fill('input[autocomplete="current-password"]', SIGN_IN.password);
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/dashboard$/, { timeout: 60_000 });
    await page.goto('about:blank');
    log('lighthouse: signed in as the demo patient');

    for (const target of pages) rows.push(await measure(target));
    await page.close();
    return { runs, rows };
  } finally {
    await browser?.close().catch(() => undefined);
    chrome.kill();
  }
}

/** The page stayed where it was opened (a page may add its query, as the calendar does its view). */
const landedOn = (url, pathname) => new URL(url).pathname === pathname;

const fmt = {
  s: (ms) => `${(ms / 1000).toFixed(1)} s`,
  ms: (ms) => `${Math.round(ms)} ms`,
  cls: (v) => v.toFixed(3),
  kb: (v) => `${v.toFixed(0)} KB`,
};

/** The table, and a PASS/FAIL line per goal and signed-in page (the sign-in page is shown, not judged). */
export function printLighthouse({ runs, rows }) {
  const head = ['page', 'perf', 'LCP', 'CLS', 'TBT', 'JS (compressed)', 'requests', 'best practices'];
  const body = rows.map((r) => [
    r.name,
    String(r.performance),
    fmt.s(r.lcpMs),
    fmt.cls(r.cls),
    fmt.ms(r.tbtMs),
    `${fmt.kb(r.jsKb)} (${fmt.kb(r.jsKbRaw)} raw)`,
    String(r.requests),
    String(r.bestPractices),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\nLighthouse 12, mobile, simulated throttling, cold HTTP cache; median of ${runs}:`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of body) console.log(line(row));
  for (const r of rows) {
    if (r.failedBestPractices.length) console.log(`  ${r.name}: best-practice audits not passed: ${r.failedBestPractices.join(', ')}`);
    if (r.finalUrls.some((u) => !landedOn(u, r.path))) console.log(`  ${r.name}: landed on ${r.finalUrls.join(', ')}`);
    for (const e of r.errors) console.log(`  ${r.name}: ${e}`);
  }
  const g = LIGHTHOUSE_GOALS;
  const checks = [];
  for (const r of rows.filter((row) => !row.path.endsWith('/login'))) {
    const landed = r.finalUrls.every((u) => landedOn(u, r.path));
    const pass =
      landed && r.performance >= g.performance && r.lcpMs < g.lcpMs && r.cls < g.cls && r.tbtMs < g.tbtMs && r.jsKb <= g.jsKb && r.bestPractices >= g.bestPractices;
    const detail =
      `performance ${r.performance} (≥ ${g.performance}), LCP ${fmt.s(r.lcpMs)} (< 2.5 s), CLS ${fmt.cls(r.cls)} (< ${g.cls}), ` +
      `TBT ${fmt.ms(r.tbtMs)} (< ${g.tbtMs} ms), JS ${fmt.kb(r.jsKb)} (≤ ${g.jsKb} KB), best practices ${r.bestPractices}` +
      (landed ? '' : ' — did not stay on the page');
    checks.push({ name: `lighthouse ${r.name}`, pass, value: r.performance, threshold: g.performance });
    console.log(`${pass ? 'PASS' : 'FAIL'}  lighthouse ${r.name}: ${detail}`);
  }
  return checks;
}
