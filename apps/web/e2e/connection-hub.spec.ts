// The Connection Hub through the pages: the healthbook demo patient links her own account at
// Northwind (maria@northwind.example) by signing in to it from the hub (a wrong password first),
// copies records there, switches to Northwind (no password asked), switches back from the avatar
// menu, and unlinks. Then the page in Greek at phone width. Every page and dialog passes the
// axe scan. CONNECTION_HUB_SHOTS_DIR keeps screenshots for reading.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, scan, signIn } from './accounts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const SHOTS = process.env.CONNECTION_HUB_SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const HEALTHBOOK_PATIENT = 'patient@healthbook.example';
const NORTHWIND_MARIA = 'maria@northwind.example';

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function signedIn(browser: Browser, options: { phone?: boolean; greek?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: options.phone ? PHONE : DESKTOP, locale: 'en-US' });
  const page = await context.newPage();
  if (options.greek) {
    await page.goto('/healthbook/login');
    await page.getByRole('button', { name: 'Ελληνικά' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await page.locator('input[type=email]').fill(HEALTHBOOK_PATIENT);
    await page.locator('input[autocomplete=current-password]').fill(DEMO_PASSWORD);
    await page.locator('form button[type=submit]').click();
  } else {
    await signIn(page, HEALTHBOOK_PATIENT, DEMO_PASSWORD);
  }
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  return page;
}

test('links the Northwind account, copies records, switches both ways and unlinks', async ({ browser }) => {
  const page = await signedIn(browser);

  // The app bar's Connection Hub button opens the hub: nothing linked yet.
  await page.getByRole('banner').getByRole('link', { name: 'Connection Hub' }).click();
  await expect(page).toHaveURL(/\/healthbook\/connection-hub$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Connection Hub' })).toBeVisible();
  await expect(page.getByText('No linked accounts yet.')).toBeVisible();
  await scan(page);
  await shot(page, 'en-desktop-empty');

  // Link an account: a wrong password first (the sign-in's answer), then the right one.
  await page.getByRole('button', { name: 'Link an account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link an account' });
  await expect(dialog).toBeVisible();
  // The other organisations are offered by name.
  await dialog.getByRole('combobox', { name: /^Organisation/ }).click();
  await page.getByRole('option', { name: 'Northwind Health' }).click();
  await dialog.getByLabel(/^E-mail address of that account/).fill(NORTHWIND_MARIA);
  await dialog.getByLabel(/^Password of that account/).fill('Not-the-password#1');
  await dialog.getByRole('button', { name: 'Link account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Incorrect authentication credentials.');
  await scan(page);
  await shot(page, 'en-desktop-link-wrong-password');
  await dialog.getByLabel(/^Password of that account/).fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Link account' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Linked: Maria Papadopoulou at Northwind Health.')).toBeVisible();
  const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Northwind Health' }) });
  await expect(item.getByText(NORTHWIND_MARIA)).toBeVisible();
  await scan(page);
  await shot(page, 'en-desktop-linked');

  // Copy the allergies to Northwind.
  await item.getByRole('button', { name: 'Copy records with your account at Northwind Health' }).click();
  const copy = page.getByRole('dialog', { name: 'Copy records' });
  await expect(copy.getByRole('radio', { name: 'From HealthBook+ to Northwind Health' })).toBeChecked();
  await copy.getByRole('button', { name: 'Copy' }).click();
  await expect(copy.getByText('Choose at least one kind of record to copy.')).toBeVisible();
  await copy.getByRole('checkbox', { name: 'Allergies' }).check();
  await copy.getByRole('checkbox', { name: 'Conditions' }).check();
  await scan(page);
  await shot(page, 'en-desktop-copy-dialog');
  await copy.getByRole('button', { name: 'Copy' }).click();
  await expect(copy).toBeHidden();
  await expect(page.getByText(/[1-9][0-9]* records? copied\./)).toBeVisible();
  await shot(page, 'en-desktop-copied');

  // Switch: Northwind's dashboard, no password asked.
  await item.getByRole('button', { name: 'Switch to your account at Northwind Health' }).click();
  await expect(page).toHaveURL(/\/northwind\/dashboard$/);
  await expect(page.getByRole('link', { name: 'Northwind Health, dashboard' })).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText(NORTHWIND_MARIA).first()).toBeVisible();
  await shot(page, 'en-desktop-northwind-menu');
  // The copied allergies are there.
  await page.keyboard.press('Escape');
  await page.goto('/northwind/health-record/allergy');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(/Penicillin|Peanut|Pollen|Latex|Dust/i).first()).toBeVisible();

  // The hub at Northwind lists the healthbook account; switch back from the avatar menu.
  await page.goto('/northwind/connection-hub');
  await expect(page.getByRole('heading', { name: 'HealthBook+' })).toBeVisible();
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: /Switch to HealthBook\+/ }).click();
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  await expect(page.getByRole('link', { name: 'HealthBook+, dashboard' })).toBeVisible();

  // Unlink, with confirmation: gone here (and there).
  await page.goto('/healthbook/connection-hub');
  await page.getByRole('button', { name: 'Unlink your account at Northwind Health' }).click();
  const confirm = page.getByRole('dialog', { name: 'Unlink this account?' });
  await expect(confirm).toBeVisible();
  await scan(page);
  await shot(page, 'en-desktop-unlink-confirm');
  await confirm.getByRole('button', { name: 'Unlink' }).click();
  await expect(page.getByText('Your account at Northwind Health is no longer linked.')).toBeVisible();
  await expect(page.getByText('No linked accounts yet.')).toBeVisible();
  await page.context().close();
});

test('the hub in Greek at phone width', async ({ browser }) => {
  const page = await signedIn(browser, { phone: true, greek: true });
  await page.goto('/healthbook/connection-hub');
  await expect(page.getByRole('heading', { level: 1, name: 'Κέντρο συνδέσεων' })).toBeVisible();
  await expect(page.getByText('Δεν υπάρχουν ακόμη συνδεδεμένοι λογαριασμοί.')).toBeVisible();
  await scan(page);
  await shot(page, 'el-phone-empty');
  await page.getByRole('button', { name: 'Σύνδεση λογαριασμού' }).click();
  const dialog = page.getByRole('dialog', { name: 'Σύνδεση λογαριασμού' });
  await expect(dialog).toBeVisible();
  // The other organisations by name, not this one; none chosen: said in Greek.
  await dialog.getByRole('combobox', { name: /^Οργανισμός/ }).click();
  await expect(page.getByRole('option', { name: 'Northwind Health' })).toBeVisible();
  await expect(page.getByRole('option', { name: 'HealthBook+', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await dialog.getByLabel(/^Διεύθυνση e-mail/).fill('admin@healthbook.example');
  await dialog.getByLabel(/^Συνθηματικό/).fill(DEMO_PASSWORD);
  await dialog.locator('button[type=submit]').click();
  await expect(dialog.getByText('Επιλέξτε τον οργανισμό του άλλου λογαριασμού.')).toBeVisible();
  await scan(page);
  await shot(page, 'el-phone-link-no-organisation');
  await page.context().close();
});
