// Records that flow in from providers (issue 28), against the tests' own SMART on FHIR EHR on
// loopback (apps/server/test/ehr, started here as a process of its own): the demo administrator
// adds the EHR as a source (Check shows every check passed); the demo patient connects it (the
// EHR's sign-in and consent), comes back, sees the connection bring records, sees a condition
// marked "From <source>" (its form locked but for the note), syncs again and disconnects keeping
// the records. Denying consent shows its own error page. Axe and the screen-flaw checks on each
// new page, at desktop and phone width, in English and Greek; with E2E_SHOTS_DIR set, screenshots
// of each (sources-<language>-<viewport>-<page>.png).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, BASE_URL, DEMO_PASSWORD, landing, scan, signIn } from './accounts';
import { expectNoScreenFlaws } from './screen-flaws';

test.describe.configure({ mode: 'serial', timeout: 300_000 });
// A step that cannot happen fails in its own time, not the journey's.
test.use({ actionTimeout: 30_000, navigationTimeout: 30_000 });

const PATIENT = 'patient@healthbook.example';
const ROOT = path.resolve(import.meta.dirname, '../../..');
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;
const VIEWPORTS = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;
const SOURCE = `Test EHR ${Date.now().toString(36).toUpperCase()}`;
const CONDITION = 'Hypertensive disorder, systemic arterial';
const CALLBACK = `${BASE_URL}/healthbook/health-record/connections/callback`;

let ehr: ChildProcess | null = null;
let fhirBase = '';

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  const port = await freePort();
  // Its own process group: stopping it stops npx and the EHR under it.
  ehr = spawn('npx', ['tsx', 'apps/server/test/ehr/cli.ts', '--port', String(port), '--client-id', 'healthbook-e2e', '--redirect-uri', CALLBACK], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let errors = '';
  ehr.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const first = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the test EHR did not start: ${errors}`)), 60_000);
    ehr!.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    ehr!.once('exit', (code) => reject(new Error(`the test EHR ended (${code}): ${errors}`)));
  });
  fhirBase = (JSON.parse(first) as { fhirBase: string }).fhirBase;
  expect(fhirBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
});

test.afterAll(() => {
  if (ehr?.pid) {
    try {
      process.kill(-ehr.pid, 'SIGTERM');
    } catch {
      // Ended already.
    }
  }
});

/** Signs in on the sign-in page whatever its language; waits for where it leads. */
async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, email, DEMO_PASSWORD);
  await expect(page).toHaveURL(landing(email));
  return page;
}

/**
 * The page as it is, at each width and in each language: axe, the screen-flaw checks and (with
 * E2E_SHOTS_DIR) a screenshot; then back to English at desktop width. `ready` waits for what
 * the page must show first; `words`, those of records the EHR made (a record's values are its own words).
 */
async function everyWay(page: Page, name: string, ready: (page: Page) => Promise<void>, words: readonly string[] = []) {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    for (const language of ['en', 'el'] as const) {
      await page.evaluate((lang) => localStorage.setItem('language', lang), language);
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await expect(page.locator('h1').first()).toBeVisible();
      await ready(page);
      await scan(page);
      await expectNoScreenFlaws(page, language, `sources-${language}-${viewportName}-${name}`, [...SOURCE.split(' '), ...words]);
      if (SHOTS_DIR) {
        mkdirSync(SHOTS_DIR, { recursive: true });
        await page.screenshot({ path: path.join(SHOTS_DIR, `sources-${language}-${viewportName}-${name}.png`), fullPage: true });
      }
    }
  }
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
}

/** The EHR's own pages: sign in as Alice, then allow or deny. */
async function atTheEhr(page: Page, decision: 'Allow' | 'Deny') {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the Test EHR' })).toBeVisible();
  await page.getByLabel('Username').fill('alice');
  await page.getByLabel('Password').fill('alice-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Allow .+ to access your record\?$/ })).toBeVisible();
  await page.getByRole('button', { name: decision }).click();
}

test('the admin adds the EHR; the patient connects it, sees its records, syncs again and disconnects keeping them', async ({ browser }) => {
  // The administrator: Administration → Record sources.
  const admin = await signedIn(browser, ADMIN);
  // The administrator's home (people) stands outside the hub; its menu is the dashboard's.
  await admin.getByRole('link', { name: 'Go to the dashboard' }).click();
  await admin.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Record sources' }).click();
  await expect(admin).toHaveURL(/\/healthbook\/admin\/record-sources$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Record sources' })).toBeVisible();
  // The redirect URI to register with the EHR is the one it was started with.
  await expect(admin.getByText(CALLBACK, { exact: true })).toBeVisible();
  await scan(admin);

  await admin.getByRole('button', { name: 'Add a source' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Add a source' });
  await dialog.getByLabel('Name patients see').fill(SOURCE);
  await dialog.getByLabel('FHIR base URL').fill(fhirBase);
  await dialog.getByRole('button', { name: 'Check' }).click();
  await expect(dialog.getByText('Every check passed.')).toBeVisible({ timeout: 30_000 });
  const checks = dialog.getByRole('list', { name: 'Checks' }).getByRole('listitem');
  await expect(checks).toHaveCount(6);
  await expect(checks.filter({ hasText: '(passed)' })).toHaveCount(6);
  await dialog.getByLabel('Client ID').fill('healthbook-e2e');
  await expect(dialog.getByLabel('Scopes')).toHaveValue('launch/patient openid fhirUser offline_access patient/*.rs');
  await scan(admin);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  await expect(admin.getByText(`${SOURCE} was added.`)).toBeVisible();
  const row = admin.getByRole('table', { name: 'Sources' }).getByRole('row').filter({ hasText: SOURCE });
  await expect(row).toContainText(fhirBase);
  await expect(row).toContainText('Public');
  await expect(row.getByRole('switch', { name: `${SOURCE} offered to patients` })).toBeChecked();
  // The edit dialog comes with the source's values (the secret never shown); cancelled.
  await row.getByRole('button', { name: `Change ${SOURCE}` }).click();
  const edit = admin.getByRole('dialog', { name: `Change ${SOURCE}` });
  await expect(edit.getByLabel('FHIR base URL')).toHaveValue(fhirBase);
  await expect(edit.getByLabel('Client ID')).toHaveValue('healthbook-e2e');
  await scan(admin);
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();
  await everyWay(admin, 'admin', async (p) => {
    await expect(p.getByText(fhirBase).filter({ visible: true }).first()).toBeVisible();
  });
  await admin.context().close();

  // The patient: Health records → Connected providers → Connect.
  const page = await signedIn(browser, PATIENT);
  await page.goto('/healthbook/health-record');
  await page.getByRole('link', { name: 'Connected providers' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-record\/connections$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Connected providers' })).toBeVisible();
  await expect(page.getByText('You have not connected a provider yet.', { exact: false })).toBeVisible();
  await scan(page);
  await page.getByRole('button', { name: `Connect ${SOURCE}` }).click();

  // At the EHR: Alice signs in and allows; back at the app, connected.
  await atTheEhr(page, 'Allow');
  await expect(page).toHaveURL(/\/healthbook\/health-record\/connections$/, { timeout: 30_000 });
  await expect(page.getByText(`Connected to ${SOURCE}. Your records are on their way.`)).toBeVisible();
  const card = page.getByRole('article', { name: SOURCE });
  await expect(card.getByText('Up to date')).toBeVisible({ timeout: 90_000 });
  await expect(card).toContainText(/Records brought\s*\d+ records/);
  await expect(card).toContainText(/\d+ added, \d+ updated, \d+ deleted, \d+ unchanged/);
  await expect(page.getByRole('listitem').filter({ hasText: SOURCE }).getByText('Connected')).toBeVisible();
  await card.getByRole('button', { name: 'Details of the last sync' }).click();
  await expect(card.getByText('Left out')).toBeVisible();
  await everyWay(page, 'connections', async (p) => {
    await expect(p.getByRole('article', { name: SOURCE })).toBeVisible();
  });

  // A condition the EHR brought says where it came from; only its note may change; it cannot be deleted.
  await page.goto('/healthbook/health-record/condition');
  const link = page.getByRole('link', { name: CONDITION });
  await expect(link).toBeVisible();
  await expect(page.getByText(`From ${SOURCE}`).first()).toBeVisible();
  await scan(page);
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: CONDITION })).toBeVisible();
  await expect(page.getByText(`From ${SOURCE}`, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByText(`This record came from ${SOURCE}: it goes when you disconnect the provider`, { exact: false })).toBeVisible();
  await everyWay(page, 'record', async (p) => {
    await expect(p.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(p.getByText(SOURCE).filter({ visible: true }).first()).toBeVisible();
  }, CONDITION.split(/\W+/));
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByText(`This record came from ${SOURCE} and changes there.`, { exact: false })).toBeVisible();
  await expect(page.locator('input[name=name]')).toBeDisabled();
  await expect(page.locator('textarea[name=note]')).toBeEnabled();
  await page.locator('textarea[name=note]').fill('Checked by my GP.');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: CONDITION })).toBeVisible();
  await expect(page.getByText('Checked by my GP.')).toBeVisible();

  // Sync now: a full sync, up to date again.
  await page.goto('/healthbook/health-record/connections');
  await card.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(card.getByText('Up to date')).toBeVisible({ timeout: 90_000 });

  // Disconnect, keeping the records (the box is unticked by default).
  await card.getByRole('button', { name: 'Disconnect' }).click();
  const confirm = page.getByRole('dialog', { name: `Disconnect ${SOURCE}?` });
  const remove = confirm.getByRole('checkbox', { name: /^Also remove the \d+ records? it brought$/ });
  await expect(remove).not.toBeChecked();
  await scan(page);
  await confirm.getByRole('button', { name: 'Disconnect' }).click();
  await expect(page.getByText(`${SOURCE} was disconnected. The records it brought stay in your health record.`)).toBeVisible();
  await expect(page.getByRole('article', { name: SOURCE })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Connect ${SOURCE}` })).toBeVisible();
  await page.goto('/healthbook/health-record/condition');
  await expect(page.getByRole('link', { name: CONDITION })).toBeVisible();
  await page.context().close();
});

test('denying consent at the EHR shows why, and leads back to the providers', async ({ browser }) => {
  const page = await signedIn(browser, PATIENT);
  await page.goto('/healthbook/health-record/connections');
  await page.getByRole('button', { name: `Connect ${SOURCE}` }).click();
  await atTheEhr(page, 'Deny');
  await expect(page).toHaveURL(/\/healthbook\/health-record\/connections\/callback\?/, { timeout: 30_000 });
  const heading = page.getByRole('heading', { level: 1, name: 'The connection was not allowed' });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  await expect(page.getByRole('alert')).toContainText(SOURCE);
  await scan(page);
  // A reload (everyWay reloads) shows the same answer: it is kept in the history entry, the used state not handed in again.
  await everyWay(page, 'callback-error', async (p) => {
    await expect(p.getByRole('alert')).toBeVisible();
    await expect(p.locator('h1')).toHaveText(/^(The connection was not allowed|Η σύνδεση δεν επιτράπηκε)$/);
  });
  await expect(heading).toBeVisible();
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-record\/connections$/);
  await expect(page.getByRole('button', { name: `Connect ${SOURCE}` })).toBeVisible();
  await page.context().close();

  // The administrator removes the source: its connections end, the records it brought stay.
  const admin = await signedIn(browser, ADMIN);
  await admin.goto('/healthbook/admin/record-sources');
  await admin.getByRole('table', { name: 'Sources' }).getByRole('button', { name: `Remove ${SOURCE}` }).click();
  const confirm = admin.getByRole('dialog', { name: `Remove ${SOURCE}?` });
  await expect(confirm).toContainText('The records it brought stay in their health records.');
  await scan(admin);
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(admin.getByText(`${SOURCE} was removed.`)).toBeVisible();
  await expect(admin.getByText('No sources yet.', { exact: false })).toBeVisible();
  await admin.context().close();
});
