// The first start of a real installation, the operator's way: `npm run cli -- create-admin` while
// the product runs (the server that holds the embedded DATA_DIR carries it out), the e-mailed
// set-password link, the set-password page (en and el, desktop and phone, axe), then sign-in as a
// super admin. With E2E_SHOTS_DIR set, the page's states are kept as screenshots there.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { expectDashboard, mailLink, passwordField, scan, uniqueEmail, uniqueName } from './accounts';
import { waitForMail } from './mailbox';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;
const SUBJECT = /^Your HealthBook\+ account: choose your password$/;
const VIEWPORTS = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844 } } as const;

/** `npm run cli -- <args>` as an operator types it, on the journeys' server's DATA_DIR. */
function cli(args: string[]) {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/cli.mjs'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: process.env.E2E_DATA_DIR },
    timeout: 60_000,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** A super admin made by the CLI; answers who and the link of the mail. */
function createAdmin(firstName: string, lang: 'en' | 'el' = 'en') {
  const email = uniqueEmail('operator');
  const res = cli(['create-admin', '--email', email, '--first-name', firstName, '--last-name', 'Operator', '--lang', lang]);
  expect(res.err).toBe('');
  expect(res.code).toBe(0);
  expect(res.out).toContain(`Super admin ${firstName} Operator <${email}> created in HealthBook+ (healthbook).`);
  // Mail goes through SMTP here: the link is e-mailed, never printed.
  expect(res.out).toContain(`was e-mailed to ${email}`);
  expect(res.out).not.toContain('/password/set/');
  return { email };
}

async function shot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

test('create-admin while the product runs → e-mailed link → set-password page → signed-in super admin', async ({ page }) => {
  test.setTimeout(120_000);
  const firstName = uniqueName('Ada');
  const { email } = createAdmin(firstName);
  const link = mailLink(await waitForMail(email, SUBJECT));
  expect(link).toMatch(/\/healthbook\/password\/set\/[^/]+\/[^/]+$/);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  await expect(page).toHaveTitle('Choose your password | HealthBook+');
  await expect(page.getByText(`Welcome, ${firstName}. Choose the password of your account at HealthBook+:`)).toBeVisible();
  await expect(page.getByText(email, { exact: true })).toBeVisible();
  await scan(page);
  await shot(page, 'set-password-en-desktop');

  // The sign-up rules, with the same hint.
  await expect(page.getByText(/At least 8 characters, with uppercase and lowercase letters/)).toBeVisible();
  await passwordField(page).fill('weakpassword');
  await passwordField(page).blur();
  await expect(page.getByText('Passwords does not meet requirements')).toBeVisible();
  await page.getByLabel(/^Confirm password/).fill('Other#Pass1');
  await page.getByLabel(/^Confirm password/).blur();
  await scan(page);
  await shot(page, 'set-password-en-desktop-errors');
  await passwordField(page).fill('Operator#First1');
  await page.getByLabel(/^Confirm password/).fill('Operator#First1');
  await expect(page.getByText('Passwords match', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Set password' }).click();

  // Sign-in, with a confirmation and the address filled in.
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  await expect(page.getByRole('status')).toHaveText('Your password is set. Sign in with it now.');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await scan(page);
  await passwordField(page).fill('Operator#First1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  // Staff land on their console: an administrator on People; the dashboard greets them by name.
  await expect(page).toHaveURL(/\/healthbook\/addUser\/home$/);
  await page.goto('/healthbook/dashboard');
  await expectDashboard(page, firstName);
  // A super admin: Operations is in the menu.
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Operations' })).toBeVisible();

  // The link worked once.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'This link has already been used' })).toBeVisible();
  await expect(page.getByText('This set-password link has already been used. Sign in with the password you chose.')).toBeVisible();
  await scan(page);
  await shot(page, 'set-password-used-en-desktop');
});

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  for (const [language, locale] of [['en', 'en-US'], ['el', 'el-GR']] as const) {
    test.describe(`${viewportName}, ${language}`, () => {
      test.use({ viewport, locale });

      test('the set-password page and its refusals pass axe', async ({ page }) => {
        test.setTimeout(90_000);
        const { email } = createAdmin(uniqueName('Axe'), language);
        const link = mailLink(await waitForMail(email, language === 'el' ? /επιλέξτε συνθηματικό$/ : SUBJECT));
        await page.goto(link);
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        await expect(page.getByRole('button', { name: language === 'el' ? 'Ορισμός συνθηματικού' : 'Set password' })).toBeVisible();
        await expect(page.getByText(email, { exact: true })).toBeVisible();
        await scan(page);
        await shot(page, `set-password-${language}-${viewportName}`);

        // A link that is not one (the token changed): refused with its message.
        const broken = link.replace(/\/[^/]+$/, '/not-a-token');
        await page.goto(broken);
        await expect(page.getByRole('heading', { level: 1, name: language === 'el' ? 'Ο σύνδεσμος δεν λειτουργεί' : 'This link does not work' })).toBeVisible();
        await scan(page);
        await shot(page, `set-password-invalid-${language}-${viewportName}`);

        // Running create-admin again replaces the link: the first one now reads as expired.
        const again = cli(['create-admin', '--email', email, '--first-name', 'Axe', '--last-name', 'Operator']);
        expect(again.code).toBe(0);
        await page.goto(link);
        await expect(page.getByRole('heading', { level: 1, name: language === 'el' ? 'Ο σύνδεσμος έχει λήξει' : 'This link has expired' })).toBeVisible();
        await expect(page.getByRole('link', { name: language === 'el' ? 'Λάβετε νέο σύνδεσμο (Ξεχάσατε το συνθηματικό σας;)' : 'Get a new link (Forgot password?)' })).toBeVisible();
        await scan(page);
        await shot(page, `set-password-expired-${language}-${viewportName}`);
      });
    });
  }
}
