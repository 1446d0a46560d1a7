// Account protections: the refresh token in an HttpOnly cookie (renewed by one tab at a time),
// the little a sign-in knows before its second factor, the password asked again for protected
// changes, and the e-mail address changed through a link sent to the new one.
import { expect, test, type Page } from '@playwright/test';
import {
  confirmItsYou,
  expectDashboard,
  mailLink,
  patientWithEmailFactor,
  registeredPatient,
  scan,
  signIn,
  signOut,
  SUBJECTS,
  typeCode,
  uniqueEmail,
} from './accounts';
import { sixDigitCode, waitForMail } from './mailbox';

const accessToken = (page: Page) => page.evaluate(() => (JSON.parse(localStorage.getItem('session') ?? 'null') as { access?: string } | null)?.access ?? null);

/** Spoils the stored access token's signature, as if it had run out: the next call answers 401. */
const spoilAccessToken = (page: Page) =>
  page.evaluate(() => {
    const { access } = JSON.parse(localStorage.getItem('session')!) as { access: string };
    const [header, payload, signature] = access.split('.') as [string, string, string];
    const spoiled = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    localStorage.setItem('session', JSON.stringify({ access: spoiled }));
    return spoiled;
  });

const LIMITED_USER_FIELDS = ['first_name', 'has_mfa_enabled', 'mfa_devices', 'settings', 'user_id', 'user_org_details'];

test('the refresh token is an HttpOnly cookie; tabs renew the session one at a time; sign-out clears it', async ({ page, context }) => {
  test.setTimeout(60_000);
  const user = await registeredPatient('cookie');
  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);

  // Only the access token is in storage; the refresh token is a cookie script cannot read.
  expect(Object.keys(JSON.parse((await page.evaluate(() => localStorage.getItem('session')))!))).toEqual(['access']);
  expect(await page.evaluate(() => document.cookie)).not.toContain('hb_refresh');
  const cookies = (await context.cookies()).filter((c) => c.name === 'hb_refresh');
  expect(cookies.map((c) => c.path).sort()).toEqual(['/api/v1/logout/', '/api/v1/refresh/']);
  for (const cookie of cookies) expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });

  // A token the server refuses: the page renews it with the cookie and opens.
  const spoiled = await spoilAccessToken(page);
  await page.goto('/healthbook/settings/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeVisible();
  expect(await accessToken(page)).not.toBe(spoiled);

  // Two tabs failing at once renew once: the second takes the first one's token (presenting the
  // rotated cookie again would end the whole session).
  const second = await context.newPage();
  await second.goto('/healthbook/dashboard');
  await expectDashboard(second, user.first_name);
  // Renewals answered (a renewal the reload itself aborts in a tab, which the other tab's lock then
  // follows with the rotated cookie, is not a second renewal the session could die of).
  const refreshes: string[] = [];
  context.on('requestfinished', (request) => {
    if (request.url().endsWith('/api/v1/refresh/')) refreshes.push(request.url());
  });
  await spoilAccessToken(page);
  await Promise.all([page.reload(), second.reload()]);
  await expect(page.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeVisible();
  await expectDashboard(second, user.first_name);
  expect(refreshes).toHaveLength(1);
  await second.reload();
  await expectDashboard(second, user.first_name);

  // Sign-out ends the session everywhere and clears the cookie.
  await signOut(page);
  await expect(second).toHaveURL(/\/healthbook\/login/);
  expect((await context.cookies()).filter((c) => c.name === 'hb_refresh')).toEqual([]);
  const renewal = await page.request.post('/api/v1/refresh/', { data: {} });
  expect([400, 401]).toContain(renewal.status());
});

test('a sign-in waiting for its second factor knows only what that step needs', async ({ page }) => {
  test.setTimeout(60_000);
  const user = await patientWithEmailFactor('limited');
  const loginAnswer = page.waitForResponse((response) => response.url().endsWith('/api/v1/login/'));
  await signIn(page, user.email, user.password);
  const answer = (await (await loginAnswer).json()) as { user: Record<string, unknown> };
  expect(Object.keys(answer.user).sort()).toEqual(LIMITED_USER_FIELDS);
  expect(answer.user.mfa_devices).toEqual([{ device_type: 'email' }]);

  await expect(page).toHaveURL(/\/healthbook\/verify$/);
  const stored = (await page.evaluate(() => localStorage.getItem('user')))!;
  expect(Object.keys(JSON.parse(stored)).sort()).toEqual(LIMITED_USER_FIELDS);
  expect(stored).not.toContain(user.email);
  await expect(page.getByText(user.email)).toHaveCount(0);
  await scan(page);

  // The second step passed: the whole record arrives.
  await typeCode(page, sixDigitCode(await waitForMail(user.email, SUBJECTS.mfaCode, 1)));
  await expectDashboard(page, user.first_name);
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!)).toMatchObject({ email: user.email, dob: user.dob });
});

test('adding and removing a second factor, and changing the password, ask for the password again', async ({ page }) => {
  test.setTimeout(90_000);
  const user = await registeredPatient('reauth');
  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);

  // Adding one: "Confirm it's you" before Register.
  await page.goto('/healthbook/2fa/register');
  await page.getByRole('button', { name: 'Register' }).click();
  const confirm = page.getByRole('dialog', { name: "Confirm it's you" });
  await confirm.getByRole('button', { name: 'Register' }).click();
  await expect(confirm.getByText('Password is required')).toBeVisible();
  await confirmItsYou(page, 'Wrong#Pass1', 'Register');
  await expect(confirm.getByText('The password is not correct.')).toBeVisible();
  await expect(confirm.getByLabel(/^Password/)).toHaveAttribute('aria-invalid', 'true');
  await scan(page);
  await confirmItsYou(page, user.password, 'Register');
  await expect(page.getByText(`We sent a 6-digit code to ${user.email}.`, { exact: false })).toBeVisible();
  await typeCode(page, sixDigitCode(await waitForMail(user.email, SUBJECTS.mfaCode)));
  await expect(page).toHaveURL(/\/healthbook\/register\/success$/);

  // Removing it: the password again.
  await page.goto('/healthbook/settings/profile?tabId=3');
  await page.getByRole('button', { name: 'Remove Email' }).click();
  const remove = page.getByRole('dialog', { name: 'Remove this second factor?' });
  await expect(remove).toContainText('This is your only second factor');
  await confirmItsYou(page, 'Wrong#Pass1', 'Remove', 'Remove this second factor?');
  await expect(remove.getByText('The password is not correct.')).toBeVisible();
  await scan(page);
  await confirmItsYou(page, user.password, 'Remove', 'Remove this second factor?');
  await expect(page.getByRole('status').filter({ hasText: 'The second factor “Email” was removed.' })).toBeVisible();
  await expect(page.getByText('Two-step verification is off.', { exact: false })).toBeVisible();

  // The password: the current one first.
  const newPassword = 'Changed#Pass2';
  await page.getByRole('tab', { name: 'Password' }).click();
  await page.getByLabel(/^Current password/).fill('Wrong#Pass1');
  await page.getByLabel(/^New password/).fill(newPassword);
  await page.getByLabel(/^Confirm new password/).fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The current password is not correct.')).toBeVisible();
  await expect(page.getByLabel(/^Current password/)).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel(/^Current password/).fill(user.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your password was changed.' })).toBeVisible();
  await scan(page);
  await signOut(page);
  await signIn(page, user.email, newPassword);
  await expectDashboard(page, user.first_name);
});

test('changing the e-mail address: a link to the new address, a notice to the old one', async ({ page }) => {
  test.setTimeout(90_000);
  const user = await registeredPatient('change-from');
  const newEmail = uniqueEmail('change-to');
  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);

  await page.goto('/healthbook/settings/profile');
  await page.getByRole('button', { name: 'Change e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change your e-mail address' });
  await dialog.getByLabel(/^New e-mail address/).fill(newEmail);
  await confirmItsYou(page, 'Wrong#Pass1', 'Send link', 'Change your e-mail address');
  await expect(dialog.getByText('The password is not correct.')).toBeVisible();
  await scan(page);
  await confirmItsYou(page, user.password, 'Send link', 'Change your e-mail address');
  await expect(page.getByRole('status').filter({ hasText: `We sent a link to ${newEmail}.` })).toBeVisible();
  await expect(dialog).toBeHidden();
  // Nothing changes until the link is opened.
  await expect(page.locator('dd').filter({ hasText: user.email })).toBeVisible();
  await scan(page);

  const link = mailLink(await waitForMail(newEmail, /./));
  expect(link).toMatch(/\/healthbook\/email\/change\/[^/]+\/[^/]+$/);

  // The link works without a sign-in, once.
  await signOut(page);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail address changed' })).toBeVisible();
  await scan(page);
  // The old address is told (its first mail was the confirmation of the account).
  await waitForMail(user.email, /./, 1);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail address change' })).toBeVisible();
  await expect(page.getByRole('alert')).toBeVisible();

  // The new address signs in; the old one no longer does.
  await signIn(page, user.email, user.password);
  await expect(page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' })).toBeVisible();
  await signIn(page, newEmail, user.password);
  await expectDashboard(page, user.first_name);
});
