// The administrator's home (addUser/home): the people of the organisation, a provider invited who
// sets the password through the e-mailed link and signs in, and patients invited in bulk from a
// CSV file (a preview with each row's problems, then the progress to done). Axe on each page, in
// English and Greek, on a desktop and a phone.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, mailLink, passwordField, landing, scan, signIn, uniqueEmail, uniqueName } from './accounts';
import { waitForMail } from './mailbox';

const SHOTS_DIR = process.env.E2E_SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS_DIR) return;
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}.png`), fullPage: true });
}

test('the admin home: search, invite a provider who sets the password from the mail and signs in', async ({ page }) => {
  test.setTimeout(150_000);
  // An administrator lands on their console.
  await signIn(page, ADMIN, DEMO_PASSWORD);
  await expect(page).toHaveURL(landing(ADMIN));
  await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
  await expect(page).toHaveTitle('People | HealthBook+');
  const table = page.getByRole('table', { name: 'People of HealthBook+' });
  // Other journeys add people meanwhile: the first page holds whoever sorts first, so the demo patient is searched for.
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await scan(page);
  await page.getByLabel('Search by name or e-mail').fill('patient@healthbook.example');
  await expect(table.getByRole('cell', { name: 'patient@healthbook.example', exact: true })).toBeVisible();

  await page.getByLabel('Search by name or e-mail').fill('georgiou');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('cell', { name: 'provider@healthbook.example', exact: true })).toBeVisible();
  await page.getByLabel('Search by name or e-mail').fill('');

  const firstName = uniqueName('Nora');
  const email = uniqueEmail('provider');
  await page.getByRole('button', { name: 'Invite staff' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a staff member' });
  await expect(dialog.getByLabel('Speciality')).toBeVisible();
  await scan(page);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('First name is required').or(dialog.getByText(/required/i)).first()).toBeVisible();
  await dialog.getByLabel('First name').fill(firstName);
  await dialog.getByLabel('Last name').fill('Newdoc');
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await dialog.getByLabel('Speciality').fill('Endocrinology');
  await dialog.getByLabel('Credentials').fill('MD, PhD');
  await dialog.getByLabel('Languages spoken').fill('English, Greek');
  await dialog.getByLabel('Biography').fill('Diabetes and thyroid care.');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('status').filter({ hasText: `The invitation was sent to ${email}.` })).toBeVisible();
  await page.getByLabel('Search by name or e-mail').fill(email);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText('Invited');
  await expect(table.getByRole('row').nth(1)).toContainText('Provider');
  await scan(page);

  const mail = await waitForMail(email, /choose your password/);
  const link = mailLink(mail);
  expect(link).toMatch(/\/healthbook\/password\/set\/[^/]+\/[^/]+$/);
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.removeItem('session'));
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  const password = 'Provider#2026x';
  await passwordField(page).fill(password);
  await page.getByLabel(/^Confirm password/).fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('status')).toHaveText('Your password is set. Sign in with it now.');
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  // A provider lands on their console, first in their menu.
  await expect(page).toHaveURL(/\/healthbook\/provider\/appointments$/);
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link').first()).toHaveAccessibleName('My appointments');
});

test('patients in bulk: the preview shows each row’s problems, then the progress goes to done', async ({ page }) => {
  test.setTimeout(150_000);
  const stamp = Date.now();
  const rows = [
    'first_name,last_name,dob,gender,email,language',
    ...Array.from({ length: 40 }, (_, i) => `Bulk${i},Patient,1980-01-${String((i % 28) + 1).padStart(2, '0')},${i % 2 ? 'male' : 'female'},bulk-${stamp}-${i}@e2e.example,${i % 2 ? 'en' : 'el'}`),
    `Bad,Date,1980-02-30,female,bad-date-${stamp}@e2e.example,en`,
    `Odd,Gender,1980-02-03,robot,odd-${stamp}@e2e.example,en`,
    `Twice,Again,1980-02-03,male,bulk-${stamp}-0@e2e.example,en`,
    `Maria,Known,1984-03-17,female,patient@healthbook.example,el`,
  ].join('\n');

  await signIn(page, ADMIN, DEMO_PASSWORD);
  await expect(page).toHaveURL(landing(ADMIN));
  await page.getByRole('link', { name: 'Invite patients from a file' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invite patients from a file' })).toBeVisible();
  await scan(page);
  await page.locator('input[type=file]').setInputFiles({ name: 'patients.csv', mimeType: 'text/csv', buffer: Buffer.from(rows) });
  await expect(page.getByText('patients.csv: 44 rows')).toBeVisible();
  await expect(page.getByText('40 ready')).toBeVisible();
  await expect(page.getByText('3 with problems')).toBeVisible();
  const problems = page.getByRole('table', { name: 'Rows with problems' });
  await expect(problems.getByText('The date of birth is not a date (YYYY-MM-DD or MM/DD/YYYY).')).toBeVisible();
  await expect(problems.getByText('Unknown gender: use male, female, other or undisclosed.')).toBeVisible();
  await expect(problems.getByText('This e-mail address is already on an earlier line.')).toBeVisible();
  await expect(problems.getByText(/Already in the organisation/)).toBeVisible();
  await scan(page);
  await shot(page, 'import-preview');

  await page.getByRole('button', { name: 'Send 40 invitations' }).click();
  await expect(page.getByRole('progressbar', { name: 'Progress of the invitations' })).toBeVisible();
  await expect(page.getByText('Done: 40 invitations sent, 1 skipped, 0 failed.')).toBeVisible({ timeout: 60_000 });
  await scan(page);
  await waitForMail(`bulk-${stamp}-1@e2e.example`, /invited/i);

  // The same file again: nobody is invited twice.
  await page.locator('input[type=file]').setInputFiles({ name: 'patients.csv', mimeType: 'text/csv', buffer: Buffer.from(rows) });
  await expect(page.getByText('0 ready')).toBeVisible();
  await expect(page.getByText('No row can be sent.')).toBeVisible();
});

const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  for (const [language, locale] of Object.entries({ en: 'en-US', el: 'el-GR' })) {
    test.describe(`${viewportName}, ${language}`, () => {
      test.use({ viewport, locale });
      test('the people pages pass axe', async ({ page }) => {
        test.setTimeout(120_000);
        await page.goto('/healthbook/login');
        await page.locator('input[type=email], input[name=email]').first().fill(ADMIN);
        await page.locator('input[type=password]').first().fill(DEMO_PASSWORD);
        await page.locator('form button[type=submit]').first().click();
        await expect(page).toHaveURL(landing(ADMIN));
        for (const [to, name] of [
          ['/healthbook/addUser/home', 'people'],
          ['/healthbook/addUser/import', 'import'],
        ] as const) {
          await page.goto(to);
          await expect(page.locator('h1').first()).toBeVisible();
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          if (name === 'people') await expect(page.getByRole('table')).toBeVisible();
          await scan(page);
          await shot(page, `${language}-${viewportName}-${name}`);
        }
        await page.goto('/healthbook/addUser/home');
        await page.getByRole('button', { name: language === 'el' ? 'Πρόσκληση προσωπικού' : 'Invite staff' }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await scan(page);
        await shot(page, `${language}-${viewportName}-invite-staff`);
      });
    });
  }
}
