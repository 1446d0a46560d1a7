// PDF export through the pages: Export on a category's list, the choices, the wait message with
// its progress, then the PDF (what the server sent is a PDF that holds the patient's record and
// not the private one) opened in a new tab or offered by a link.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import { api, apiLogin, registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ timeout: 120_000 });

/** The PDF's text, as poppler's pdftotext reads it (Debian package poppler-utils). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hb-e2e-pdf-'));
  try {
    writeFileSync(path.join(dir, 'export.pdf'), pdf);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', path.join(dir, 'export.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function patientWithRecords(prefix: string) {
  const user = await registeredPatient(prefix);
  const token = await apiLogin(user.email, user.password);
  for (const body of [
    { name: 'Seasonal asthma', start_date: '2019-05-01', start_date_part: 'month', intensity: 4 },
    { name: 'Hidden matter', private: true },
  ]) {
    const created = await api('/api/v1/hr/condition/', { body, token });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  return user;
}

/** Holds the export call back a moment, so that the wait message can be seen and scanned. */
/**
 * The bytes of the next PDF the page fetches, read as they pass (route.fetch) rather than from the
 * browser's network log afterwards: the page turns the PDF into an object URL and opens it at
 * once, after which Chromium may no longer keep the response's body.
 */
async function nextPdf(page: Page): Promise<() => Promise<{ status: number; type: string | undefined; body: Buffer }>> {
  let seen: { status: number; type: string | undefined; body: Buffer } | null = null;
  const pattern = /\/api\/v1\/hr\/export\/[A-Za-z0-9_-]{20,}\/$/;
  const handler = async (route: Route) => {
    const response = await route.fetch();
    const body = await response.body();
    seen = { status: response.status(), type: response.headers()['content-type'], body };
    await route.fulfill({ response, body });
  };
  await page.route(pattern, handler);
  return async () => {
    await expect.poll(() => seen !== null, { timeout: 30_000 }).toBe(true);
    await page.unroute(pattern, handler);
    return seen!;
  };
}

async function slowExport(page: Page) {
  await page.route('**/api/v1/hr/export/', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
}

test('a patient exports their conditions: the wait message, then the PDF of their record', async ({ page }) => {
  const user = await patientWithRecords('export');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  await page.goto('/healthbook/health-record/condition');
  await expect(page.getByRole('heading', { level: 1, name: 'Conditions' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Seasonal asthma' })).toBeVisible();

  await page.getByRole('button', { name: 'Export' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export your health record as a PDF' });
  await expect(dialog).toBeVisible();
  // The page's category is chosen; private records are left out unless asked for.
  await expect(dialog.getByRole('checkbox', { name: 'Conditions' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Medications' })).not.toBeChecked();
  await expect(dialog.getByRole('switch', { name: 'Include private records' })).not.toBeChecked();
  await scan(page);

  await slowExport(page);
  const pdfResponse = await nextPdf(page);
  // A new tab, and what it loads: the PDF's object URL (headless Chromium saves a PDF rather than show it).
  const opened: string[] = [];
  page.context().on('page', (tab) => {
    tab.on('download', (download) => opened.push(download.url()));
    tab.on('framenavigated', (frame) => opened.push(frame.url()));
  });
  await dialog.getByRole('button', { name: 'Export PDF' }).click();

  const waiting = dialog.getByRole('status');
  await expect(waiting).toContainText('Please wait while your health record is being exported');
  await expect(waiting.getByRole('progressbar')).toBeVisible();
  await scan(page);

  const answer = await pdfResponse();
  expect(answer.status).toBe(200);
  expect(answer.type).toBe('application/pdf');
  const pdf = answer.body;
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(pdf);
  expect(text).toContain(`${user.first_name} ${user.last_name}`);
  expect(text).toContain('Conditions (1)');
  expect(text).toContain('Seasonal asthma');
  expect(text).toContain('May 2019');
  expect(text).toContain('Page 1 of 1');
  expect(text).not.toContain('Hidden matter');

  // The PDF opens in a new tab, or (a blocked pop-up) the dialog offers it.
  await expect(dialog.getByText(/Your PDF (has opened in a new tab|is ready)\./)).toBeVisible();
  const openLink = dialog.getByRole('link', { name: 'Open the PDF' });
  await expect(openLink).toHaveAttribute('href', /^blob:/);
  if (await dialog.getByText('Your PDF has opened in a new tab.').isVisible()) await expect.poll(() => opened.some((url) => url.startsWith('blob:'))).toBe(true);
  await scan(page);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // A record's own page exports that record only.
  await page.getByRole('link', { name: 'Seasonal asthma' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Seasonal asthma' })).toBeVisible();
  await page.getByRole('button', { name: 'Export' }).click();
  const single = page.getByRole('dialog', { name: 'Export your health record as a PDF' });
  await expect(single.getByRole('switch', { name: 'Only the chosen record' })).toBeChecked();
  const secondPdf = await nextPdf(page);
  // Asked for at once (202), then followed until made: the last state names one record.
  const started = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/hr/export/' && r.request().method() === 'POST');
  const made = page.waitForResponse(async (r) => /\/api\/v1\/hr\/export\/[^/]+\/status\/$/.test(new URL(r.url()).pathname) && ((await r.json()) as { status: string }).status === 'done');
  await single.getByRole('button', { name: 'Export PDF' }).click();
  expect((await started).status()).toBe(202);
  expect(((await (await made).json()) as { records: number }).records).toBe(1);
  expect(pdfText((await secondPdf()).body)).toContain('Seasonal asthma');
});
