// The signed-in hub: the shell (app bar, side navigation, drawers), the features of each
// organisation, the administrators' switches, the super admin's operations dashboard, the
// sign-in round trip with redirectFrom, and the shared dialogs by keyboard.
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, expectDashboard, registeredPatient, landing, scan, signIn } from './accounts';

const SUPERADMIN = 'superadmin@healthbook.example';
const NORTHWIND_PATIENT = 'patient@northwind.example';
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

test.describe.configure({ timeout: 120_000 });

/** The sign-in form of the page as it is (its address, with redirectFrom, kept). */
async function fillSignIn(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });
const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

test.describe('desktop', () => {
  test.use({ viewport: DESKTOP });

  test('the shell: a 76 px app bar, a permanent 200 px menu, features by status, and the reminders drawer', async ({ page }) => {
    const user = await registeredPatient('hub-desk');
    await signIn(page, user.email, user.password);
    await expectDashboard(page, user.first_name);

    expect((await box(page, 'header.MuiAppBar-root')).height).toBe(76);
    const nav = menu(page);
    await expect(nav).toBeVisible();
    expect(Math.round((await box(page, '.MuiDrawer-docked .MuiDrawer-paper')).width)).toBe(200);
    await expect(page.getByRole('button', { name: 'Open the menu' })).toHaveCount(0);

    // The app bar: logo to the dashboard, Connection Hub, Get HB+ Help.
    await expect(page.getByRole('link', { name: 'HealthBook+, dashboard' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Connection Hub' })).toHaveAttribute('href', '/healthbook/connection-hub');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Get HB+ Help' })).toBeVisible();

    // The menu's groups, by status: active items are links; inactive ones say "Coming Soon!" and go nowhere; disabled ones are not there.
    await expect(nav.getByText('My Record', { exact: true })).toBeVisible();
    await expect(nav.getByText('Ecosystem', { exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Dashboard' }).first()).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByText('Call Center Triage')).toHaveCount(0); // not built yet: the demo hides it
    // One item per tool: the symptom checker once (not again as Self-Diagnosis or in Ecosystem).
    await expect(nav.getByRole('link', { name: /Symptom Checker|Self-Diagnosis/ })).toHaveCount(1);
    // Emergency: the organisation's numbers, not "Coming Soon!".
    await nav.getByRole('link', { name: 'Emergency' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Emergency' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911');
    await expect(page.getByRole('link', { name: /988/ })).toHaveAttribute('href', 'tel:988');
    await scan(page);
    await nav.getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(nav.getByText('Administration')).toHaveCount(0); // patients administer nothing
    await expect(nav.getByRole('link', { name: 'CareClub+' }).first()).toHaveAttribute('href', '/healthbook/careclub');
    const insurance = nav.getByRole('button', { name: 'Insurance' });
    await expect(insurance).toHaveAttribute('aria-disabled', 'true');
    await insurance.hover();
    await expect(page.getByRole('tooltip', { name: 'Coming Soon!' })).toBeVisible();
    await insurance.click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);

    // An active item opens its page, and the opening is saved as an operation.
    const saved = page.waitForRequest((r) => r.url().endsWith('/api/v1/operationsdashboard/save_operations/') && r.method() === 'POST');
    await nav.getByRole('link', { name: 'Security' }).click();
    expect((await saved).postDataJSON()).toMatchObject({ organization_id: 1 });
    await expect(page).toHaveURL(/\/healthbook\/settings\/profile\?tabId=3$/);
    await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible();

    // The reminders drawer opens from the bell; its state survives a reload (calendarDrawer).
    await page.getByRole('button', { name: 'Open reminders' }).click();
    const reminders = page.getByRole('dialog', { name: 'Reminders' });
    await expect(reminders.getByText('No events found')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('dialog', { name: 'Reminders' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Reminders' })).toBeHidden();
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Reminders' })).toHaveCount(0);

    // The help hub is a page of the shell, and no patient reaches the administrators' pages.
    await page.getByRole('banner').getByRole('link', { name: 'Get HB+ Help' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Get HB+ Help' })).toBeVisible();
    await scan(page);
    for (const path of ['operations', 'admin/features']) {
      await page.goto(`/healthbook/${path}`);
      await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    }
  });

  test('another organisation, another menu: Northwind offers Insurance, hides the videos, and has its own help page', async ({ page }) => {
    await signIn(page, NORTHWIND_PATIENT, DEMO_PASSWORD, 'northwind');
    await expectDashboard(page, 'John', 'northwind');
    const nav = menu(page);
    await expect(nav.getByRole('link', { name: 'Dashboard' }).first()).toBeVisible();
    await expect(nav.getByRole('link', { name: 'CareClub+' }).first()).toHaveAttribute('href', '/northwind/careclub');
    // Insurance is active for Northwind (Coming Soon! at healthbook): its menu item is a link.
    await expect(nav.getByRole('link', { name: 'Insurance' }).first()).toHaveAttribute('href', '/northwind/insurance');
    await expect(nav.getByText('Videos')).toHaveCount(0); // no video channel
    // Help is active for Northwind (the assistant is not).
    const help = page.getByRole('banner').getByRole('link', { name: 'Get Northwind Help' });
    await expect(help).toHaveAttribute('href', '/northwind/healthhelp');
    await help.click();
    await expect(page).toHaveURL(/\/northwind\/healthhelp$/);
  });

  test('an administrator turns a hidden feature to "Coming Soon!" and back, and a patient sees each', async ({ browser }) => {
    const patient = await registeredPatient('hub-switch');
    const adminPage = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    const patientPage = await (await browser.newContext({ viewport: DESKTOP })).newPage();

    // The demo shows what works: what is not built yet is hidden, nothing is "Coming Soon!" for want of a page.
    await signIn(patientPage, patient.email, patient.password);
    await expectDashboard(patientPage, patient.first_name);
    await expect(menu(patientPage).getByText('File Library')).toHaveCount(0);

    await signIn(adminPage, ADMIN, DEMO_PASSWORD);
    await expect(adminPage).toHaveURL(landing(ADMIN));
    // The administrator's console (People, drawn without the menu) comes first in their menu.
    await adminPage.goto('/healthbook/dashboard');
    await expect(menu(adminPage).getByRole('link').first()).toHaveAccessibleName('People');
    // Patients' first steps are not theirs: no "Add your first health record".
    // (In the checklist: the organisation's welcome message may say the words to everyone.)
    await expect(adminPage.getByRole('region', { name: 'Get started' })).toBeVisible();
    await expect(adminPage.getByRole('region', { name: 'Get started' }).getByText('Add your first health record')).toHaveCount(0);
    await menu(adminPage).getByRole('link', { name: 'Features and settings' }).click();
    await expect(adminPage.getByRole('heading', { level: 1, name: 'Features and settings' })).toBeVisible();
    await scan(adminPage);
    // An organisation admin manages their own organisation only: no choice of organisation.
    await expect(adminPage.getByLabel('Organisation')).toHaveCount(0);
    const setStatus = async (status: string) => {
      await adminPage.getByRole('combobox', { name: 'Status of File Library' }).click();
      await adminPage.getByRole('option', { name: status }).click();
      await expect(adminPage.getByText('File Library: saved. Members see the change on their next page load.')).toBeVisible();
    };
    await setStatus('Inactive');
    try {
      await patientPage.reload();
      await expect(menu(patientPage).getByRole('button', { name: 'File Library' })).toHaveAttribute('aria-disabled', 'true');
    } finally {
      await setStatus('Disabled');
    }
    await patientPage.reload();
    await expect(menu(patientPage).getByRole('link', { name: 'Dashboard' }).first()).toBeVisible();
    await expect(menu(patientPage).getByText('File Library')).toHaveCount(0);
    // Core features cannot be switched off.
    await expect(adminPage.getByRole('combobox', { name: 'Status of Dashboard' })).toHaveAttribute('aria-disabled', 'true');
  });

  test('a super admin sees Operations with its charts, for any organisation, and downloads the figures', async ({ page }) => {
    await signIn(page, SUPERADMIN, DEMO_PASSWORD);
    await expect(page).toHaveURL(landing(SUPERADMIN));
    await page.goto('/healthbook/dashboard');
    await menu(page).getByRole('link', { name: 'Operations' }).click();
    await expect(page).toHaveURL(/\/healthbook\/operations$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Operations' })).toBeVisible();

    // Real figures: this sign-in is among today's.
    const signIns = page.locator('dl > div', { has: page.getByText('Sign-ins', { exact: true }) }).locator('dd').first();
    await expect(signIns).not.toHaveText('0');
    await expect(page.getByRole('heading', { name: 'Sign-ins per day' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Sign-ins per day' }).locator('svg').first()).toBeVisible();
    // The opening of Operations from the menu is a feature use of this period: a bar.
    await page.reload();
    const usage = page.getByRole('region', { name: 'Feature use (openings from the menu)' });
    await expect(usage.locator('svg').first()).toBeVisible();
    await expect(usage.getByText('No feature was opened from the menu in this period.')).toHaveCount(0);
    await page.getByText('Show the figures as a table').last().click();
    await expect(page.getByRole('rowheader', { name: 'Operations' })).toBeVisible();
    await scan(page);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^operations-healthbook-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await (await file.createReadStream()).toArray();
    expect(Buffer.concat(csv).toString()).toContain('organization,metric,date,feature,value');

    // Another organisation, another period.
    await page.getByRole('combobox', { name: 'Organisation' }).click();
    await page.getByRole('option', { name: 'Northwind Health' }).click();
    await page.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Last 7 days' }).click();
    await expect(page.getByRole('combobox', { name: 'Organisation' })).toHaveText('Northwind Health');
    await expect(page.getByText('Patients', { exact: true })).toBeVisible();
  });

  test('redirectFrom: back to the page after signing in, never to another site or organisation', async ({ page }) => {
    const user = await registeredPatient('hub-redirect');
    await page.goto('/healthbook/settings/profile?tabId=3');
    await expect(page).toHaveURL(/\/healthbook\/login\?redirectFrom=%2Fhealthbook%2Fsettings%2Fprofile%3FtabId%3D3$/);
    await fillSignIn(page, user.email, user.password);
    await expect(page).toHaveURL(/\/healthbook\/settings\/profile\?tabId=3$/);
    await expect(page.getByRole('tab', { name: 'Security', selected: true })).toBeVisible();

    for (const target of ['//evil.example/x', 'https://evil.example/', '/northwind/dashboard', '/\\evil.example']) {
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.removeItem('session'));
      await page.goto(`/healthbook/login?redirectFrom=${encodeURIComponent(target)}`);
      await fillSignIn(page, user.email, user.password);
      await expect(page, `redirectFrom=${target}`).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/healthbook\/dashboard$/);
    }
  });

  test('the dialogs by keyboard: the Videos confirmation and the account menu', async ({ page, context }) => {
    await context.route('https://www.youtube.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<title>channel</title>' }));
    const user = await registeredPatient('hub-keys');
    await signIn(page, user.email, user.password);
    await expectDashboard(page, user.first_name);

    // Videos asks first; Esc (and Go back) leave the page as it was.
    const videos = menu(page).getByRole('button', { name: 'Videos' });
    await videos.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await expect(dialog.getByText('You are now leaving this website, redirected to an external site, proceed?')).toBeVisible();
    await scan(page);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(videos).toBeFocused();
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await expect(dialog).toBeHidden();

    // Proceed opens the organisation's channel in a new tab.
    await page.keyboard.press('Enter');
    const popup = page.waitForEvent('popup');
    await dialog.getByRole('button', { name: 'Proceed' }).focus();
    await page.keyboard.press('Enter');
    expect((await popup).url()).toBe('https://www.youtube.com/@WHO');

    // The account menu: Enter opens it, arrows move, Enter chooses; Esc closes what opened and gives the focus back.
    const accountButton = page.getByRole('button', { name: 'Account menu' });
    await accountButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Account Settings' })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('menuitem', { name: 'Display settings' })).toBeFocused();
    await page.keyboard.press('Enter');
    // Display settings: dark mode covers the whole shell.
    const settings = page.getByRole('dialog', { name: 'Display settings' });
    await expect(settings).toBeVisible();
    await settings.getByRole('switch', { name: /dark/i }).or(settings.getByRole('checkbox', { name: /dark/i })).check();
    await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 255, 255)');
    await page.keyboard.press('Escape');
    await expect(settings).toBeHidden();
    await accountButton.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menu')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toBeHidden();
    await expect(accountButton).toBeFocused();
    await scan(page);
  });
});

test.describe('phone', () => {
  test.use({ viewport: PHONE });

  test('a 55 px app bar; the 330 px menu opens from its button, is remembered, and closes after a choice', async ({ page }) => {
    const user = await registeredPatient('hub-phone');
    await signIn(page, user.email, user.password);
    await expectDashboard(page, user.first_name);
    expect((await box(page, 'header.MuiAppBar-root')).height).toBe(55);
    await expect(menu(page)).toBeHidden();

    await page.getByRole('button', { name: 'Open the menu' }).click();
    await expect(menu(page)).toBeVisible();
    expect(Math.round((await box(page, '.MuiDrawer-modal .MuiDrawer-paper')).width)).toBe(330);
    await scan(page);
    // Remembered across a reload (navDrawer).
    await page.reload();
    await expect(menu(page)).toBeVisible();
    await menu(page).getByRole('link', { name: 'Personal info' }).click();
    await expect(page).toHaveURL(/\/healthbook\/settings\/profile\?tabId=0$/);
    await expect(menu(page)).toBeHidden();

    // Reminders is in the account menu on phones.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Reminders' }).click();
    await expect(page.getByRole('dialog', { name: 'Reminders' }).getByText('No events found')).toBeVisible();
  });
});
