import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, expectDashboard, expectSignedOutStorage, registeredPatient, scan, signIn } from './accounts';

test('an idle session warns after 9 minutes and signs out a minute later', async ({ page }) => {
  test.setTimeout(60_000);
  const user = await registeredPatient('idle');
  await page.clock.install();

  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);
  await scan(page);

  // The clock keeps running in real time between the jumps: a count may be a second lower than exact.
  const alert = page.getByRole('dialog', { name: 'Session timeout' });
  await page.clock.fastForward('08:50');
  await expect(alert).toBeHidden();
  await page.clock.fastForward(10_000);
  await expect(alert).toContainText('Your session is about to expire. Your session will be logged out in 60 seconds.');
  await page.clock.fastForward(5_000);
  await expect(alert).toContainText(/Your session will be logged out in 5[45] seconds\./);
  await expect(alert.getByRole('button', { name: 'Logout' })).toBeVisible();
  await scan(page);
  await alert.getByRole('button', { name: 'Continue Session' }).click();
  await expect(alert).toBeHidden();
  await expectDashboard(page, user.first_name);

  // Idle again: the alert, then at zero the sign-out.
  await page.clock.fastForward('09:00');
  await expect(alert).toContainText('Your session will be logged out in 60 seconds.');
  await page.clock.fastForward(58_000);
  await expect(alert).toContainText(/Your session will be logged out in (2 seconds|1 second)\./);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  await page.clock.fastForward(2_000);
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expectSignedOutStorage(page);
  await scan(page);
  // Nothing is left to sign in with: the dashboard asks for a new sign-in.
  await page.goto('/healthbook/dashboard');
  await expect(page).toHaveURL(/\/healthbook\/login\?redirectFrom=%2Fhealthbook%2Fdashboard$/);
});

test("a session of one organisation is ended on another organisation's pages", async ({ page }) => {
  await signIn(page, 'patient@healthbook.example', DEMO_PASSWORD);
  await expectDashboard(page, 'Maria');
  expect(await page.evaluate(() => localStorage.getItem('session'))).not.toBeNull();

  await page.goto('/northwind/dashboard');
  await expect(page).toHaveURL(/\/northwind\/login$/);
  await expect(page.getByRole('img', { name: 'Northwind Health logo' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expectSignedOutStorage(page);
  await scan(page);
  // Nor is the session kept for the first organisation.
  await page.goto('/healthbook/dashboard');
  await expect(page).toHaveURL(/\/healthbook\/login\?redirectFrom=/);
});

test("a user of one organisation cannot sign in under another's", async ({ page }) => {
  await signIn(page, 'patient@northwind.example', DEMO_PASSWORD, 'healthbook');
  await expect(page.getByRole('alert').filter({ hasText: 'The email or password is incorrect. Please check them and try again.' })).toBeVisible();
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('session'))).toBeNull();
  await scan(page);

  // The same e-mail and password work under the user's own organisation.
  await signIn(page, 'patient@northwind.example', DEMO_PASSWORD, 'northwind');
  await expectDashboard(page, 'John', 'northwind');
  await scan(page);
});
