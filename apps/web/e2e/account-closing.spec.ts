// A patient's right to leave (issue 25 §4): Account Settings → Privacy → Close my account. The
// page offers the exports first and lists what is erased and what is kept; closing asks for the
// password (a wrong one is refused), signs the patient out with the date, and e-mails it. An
// administrator sees the pending closing. Signing in again cancels it (e-mailed too). Axe on the
// new pages in English and Greek, at desktop and phone width.
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, api, apiLogin, expectDashboard, landing, registeredPatient, scan, signIn } from './accounts';
import { waitForMail } from './mailbox';

test.describe.configure({ timeout: 240_000 });

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: path.join(process.env.E2E_SHOTS_DIR, `closing-${name}.png`), fullPage: true });
}

async function newPage(browser: Browser, lang: 'en' | 'el', viewport: keyof typeof VIEWPORTS): Promise<Page> {
  const context = await browser.newContext({ locale: lang === 'el' ? 'el-GR' : 'en-US', viewport: VIEWPORTS[viewport] });
  return context.newPage();
}

/** Signs in through the API's session into a page: the sign-in page, then where the account lands (the dashboard, an administrator's people). */
async function signInPage(page: Page, email: string, password: string) {
  await page.goto('/healthbook/login');
  await page.locator('input[type=email]').fill(email);
  await page.locator('input[autocomplete=current-password]').fill(password);
  await page.locator('button[type=submit]').click();
  await expect(page).toHaveURL(landing(email));
}

test('a patient closes their account, is signed out, and keeps it by signing in again', async ({ page, browser }) => {
  const user = await registeredPatient('closing');
  // Two records, so the page has something to count.
  const patientToken = await apiLogin(user.email, user.password);
  for (const name of ['Asthma', 'Hay fever']) expect((await api('/api/v1/hr/condition/', { token: patientToken, body: { name } })).status).toBe(201);

  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await page.getByRole('tab', { name: 'Privacy' }).click();
  await expect(page).toHaveURL(/\/healthbook\/settings\/profile\?tabId=4$/);
  await expect(page.getByRole('heading', { name: 'Close my account' })).toBeVisible({ timeout: 30_000 });
  // The exports first.
  await expect(page.getByRole('link', { name: 'Export FHIR (JSON)' })).toHaveAttribute('href', '/healthbook/health-record/fhir');
  await expect(page.getByRole('link', { name: 'Export PDF' })).toHaveAttribute('href', '/healthbook/health-record');
  // Exactly what is erased, and what is kept (and why).
  const erased = page.getByRole('list', { name: 'What will be deleted' });
  await expect(erased.getByRole('listitem')).toHaveCount(12);
  // With what the server counted for the erasure.
  await expect(erased.getByRole('listitem').filter({ hasText: 'Your health records and all their earlier versions' })).toHaveText('Your health records and all their earlier versions (2 records)');
  await expect(erased).toContainText('(0 documents)');
  await expect(erased).toContainText('In all, 0 stored files are deleted');
  await expect(erased).toContainText('Your shares: their links stop working');
  await expect(page.getByRole('heading', { name: 'What is kept, and why' })).toBeVisible();
  await expect(page.getByText('audit trail', { exact: false })).toBeVisible();
  await expect(page.getByText('Your account is erased 14 days after you close it.', { exact: false })).toBeVisible();
  await shot(page, 'en-desktop-privacy');
  await scan(page);

  // The password again: a wrong one is refused, nothing happens.
  await page.getByRole('button', { name: 'Close my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Close your account?' });
  await expect(dialog).toBeVisible();
  await scan(page);
  await dialog.getByLabel(/^Password/).fill('Wrong#Pass9');
  await dialog.getByRole('button', { name: 'Close my account' }).click();
  await expect(dialog.getByText('The password is not correct.')).toBeVisible();
  await dialog.getByLabel(/^Password/).fill(user.password);
  await dialog.getByRole('button', { name: 'Close my account' }).click();

  // Signed out, told when the account will be erased; e-mailed.
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  await expect(page.getByRole('status')).toContainText('Your account will be erased on');
  await shot(page, 'en-desktop-signed-out');
  await scan(page);
  const closing = await waitForMail(user.email, /will be closed on/);
  expect(closing.text).toContain('Sign in again within 14 days');

  // An administrator sees it pending.
  const admin = await newPage(browser, 'en', 'desktop');
  await signInPage(admin, ADMIN, DEMO_PASSWORD);
  await admin.goto('/healthbook/admin/account-closings');
  // A lazy page on a busy machine: its first load may take a while.
  await expect(admin.getByRole('heading', { level: 1, name: 'Pending account closings' })).toBeVisible({ timeout: 30_000 });
  await expect(admin.getByRole('row', { name: new RegExp(user.email.replace(/[.+]/g, '\\$&')) })).toBeVisible();
  await shot(admin, 'en-desktop-admin');
  await scan(admin);
  await admin.context().close();

  // Signing in again cancels the closing.
  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);
  await waitForMail(user.email, /will not be closed/);
  const token = await apiLogin(ADMIN, DEMO_PASSWORD);
  const pending = await api<{ results: Array<{ email: string }> }>('/api/v1/account_closings/', { token });
  expect(pending.body.results.map((r) => r.email)).not.toContain(user.email);
});

for (const [lang, viewport] of [
  ['en', 'phone'],
  ['el', 'desktop'],
  ['el', 'phone'],
] as const) {
  test(`the privacy tab and the admins' page, ${lang}, ${viewport}`, async ({ browser }) => {
    const user = await registeredPatient(`closing-${lang}-${viewport}`);
    const page = await newPage(browser, lang, viewport);
    await signInPage(page, user.email, user.password);
    await page.goto('/healthbook/settings/profile?tabId=4');
    await expect(page.getByRole('heading', { name: lang === 'el' ? 'Κλείσιμο του λογαριασμού μου' : 'Close my account' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('link', { name: lang === 'el' ? 'Εξαγωγή PDF' : 'Export PDF' })).toBeVisible();
    // The counts, in the page's language.
    await expect(page.getByRole('list', { name: lang === 'el' ? 'Τι θα διαγραφεί' : 'What will be deleted' })).toContainText(lang === 'el' ? '(0 καταχωρίσεις)' : '(0 records)');
    await shot(page, `${lang}-${viewport}-privacy`);
    await scan(page);
    await page.getByRole('button', { name: lang === 'el' ? 'Κλείσιμο λογαριασμού' : 'Close my account' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await shot(page, `${lang}-${viewport}-dialog`);
    await scan(page);
    await page.context().close();
    // Closed through the API, so the administrators' page has it to show.
    const token = await apiLogin(user.email, user.password);
    const closed = await api('/api/v1/me/closing/', { body: { password: user.password }, token });
    expect(closed.status, JSON.stringify(closed.body)).toBe(202);

    const admin = await newPage(browser, lang, viewport);
    await signInPage(admin, ADMIN, DEMO_PASSWORD);
    await admin.goto('/healthbook/admin/account-closings');
    await expect(admin.getByRole('heading', { level: 1, name: lang === 'el' ? 'Λογαριασμοί σε αναμονή κλεισίματος' : 'Pending account closings' })).toBeVisible({ timeout: 30_000 });
    await expect(admin.locator('.MuiSkeleton-root')).toHaveCount(0);
    // A table at desktop width, a card per closing at phone width.
    const entry = viewport === 'phone' ? admin.getByRole('listitem').filter({ hasText: user.email }) : admin.getByRole('row').filter({ hasText: user.email });
    await expect(entry).toBeVisible();
    await shot(admin, `${lang}-${viewport}-admin`);
    await scan(admin);
    await admin.context().close();
  });
}
