import { expect, test, type Page } from '@playwright/test';
import { authenticator, codeBoxes, confirmItsYou, expectDashboard, expectSignedOutStorage, pasteCode, registeredPatient, scan, signIn, signOut, SUBJECTS, typeCode } from './accounts';
import { sixDigitCode, waitForMail } from './mailbox';

/** Account Settings → Security → Add a second factor. */
async function openSecondFactorSetup(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeVisible();
  await page.getByRole('tab', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/healthbook\/settings\/profile\?tabId=3$/);
  await expect(page.getByText('Two-step verification is off.', { exact: false })).toBeVisible();
  await scan(page);
  await page.getByRole('link', { name: 'Add a second factor' }).click();
  await expect(page).toHaveURL(/\/healthbook\/2fa\/register$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up two-step verification' })).toBeVisible();
}

const verifyHeading = (page: Page) => page.getByRole('heading', { level: 1, name: '2-step verification' });

test('e-mail codes as the second factor', async ({ page }) => {
  test.setTimeout(90_000);
  const user = await registeredPatient('mfa-mail');
  const codeMail = (n: number) => waitForMail(user.email, SUBJECTS.mfaCode, n).then(sixDigitCode);

  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);
  await expect(page.getByText('Two-step verification is off. Add a second factor', { exact: false })).toBeVisible();
  await scan(page);

  // Enrolment: Email → Register → the e-mailed code.
  await openSecondFactorSetup(page);
  const email = page.getByRole('radio', { name: /^Email/ });
  await expect(email).toBeChecked();
  await expect(page.getByText(`A code is e-mailed to ${user.email} each time you sign in.`)).toBeVisible();
  await scan(page);
  await page.getByRole('button', { name: 'Register' }).click();
  await scan(page);
  await confirmItsYou(page, user.password, 'Register');
  await expect(page.getByText(`We sent a 6-digit code to ${user.email}.`, { exact: false })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Verification code' })).toBeVisible();
  await scan(page);
  await typeCode(page, await codeMail(0));
  await expect(page).toHaveURL(/\/healthbook\/register\/success$/);
  await expect(page.getByRole('heading', { level: 1, name: '2FA Registration' })).toBeVisible();
  await expect(page.getByText('Please check your email to complete verification')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
  await scan(page);
  await page.getByRole('link', { name: 'Back to Account Settings' }).click();
  await expect(page.getByText('Two-step verification is on. When you sign in, we also ask for a code.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText(`Codes are sent to ${user.email}`);
  await scan(page);
  await signOut(page);

  // Signing in asks for the e-mailed code, typed into the six boxes.
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/verify$/);
  await expect(verifyHeading(page)).toBeVisible();
  await expect(page).toHaveTitle('2-step verification | HealthBook+');
  await expect(page.getByText('A verification code was send to your email. Please enter it below to continue to your account')).toBeVisible();
  await scan(page);
  await typeCode(page, await codeMail(1));
  await expectDashboard(page, user.first_name);
  await expect(page.getByText('Two-step verification is on: signing in asks for a code', { exact: false })).toBeVisible();
  await signOut(page);

  // Another sign-in: a wrong code is refused; pasting fills all six boxes.
  await signIn(page, user.email, user.password);
  await expect(verifyHeading(page)).toBeVisible();
  const right = await codeMail(2);
  const wrong = right.replace(/.$/, (d) => String((Number(d) + 1) % 10));
  await pasteCode(page, wrong);
  await expect(page.getByRole('alert')).toContainText('There was an error logging in to your account.');
  expect(await codeBoxes(page)).toEqual(wrong.split(''));
  await expect(page.getByRole('textbox', { name: 'Digit 1 of 6' })).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/healthbook\/verify$/);
  await scan(page);
  await pasteCode(page, right, 3);
  await expectDashboard(page, user.first_name);
  await signOut(page);

  // The Back link of the verification page signs out.
  await signIn(page, user.email, user.password);
  await expect(verifyHeading(page)).toBeVisible();
  await page.getByRole('link', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expectSignedOutStorage(page);
  await page.goto('/healthbook/dashboard');
  await expect(page).toHaveURL(/\/healthbook\/login\?redirectFrom=/);
});

test('an authenticator app as the second factor', async ({ page }) => {
  test.setTimeout(90_000);
  const user = await registeredPatient('mfa-app');

  await signIn(page, user.email, user.password);
  await expectDashboard(page, user.first_name);
  await openSecondFactorSetup(page);
  await page.getByRole('radio', { name: /^Authenticator app/ }).check();
  await scan(page);
  await page.getByRole('button', { name: 'Register' }).click();
  await confirmItsYou(page, user.password, 'Register');

  // The QR code page: the provisioning link is in the address (value).
  await expect(page).toHaveURL(/\/healthbook\/2fa\/qrgoogle\?uuid=[^&]+&value=otpauth/);
  await expect(page.getByRole('heading', { level: 1, name: 'Set up your authenticator app' })).toBeVisible();
  await expect(page.getByRole('note')).toHaveText("Don't close or refresh this window");
  await expect(page.getByRole('img', { name: 'QR code to add your account to an authenticator app' })).toBeVisible();
  const value = new URL(page.url()).searchParams.get('value')!;
  const app = authenticator(value);
  expect(app.totp.issuer).toBe('HealthBook+');
  expect(app.totp.label).toBe(user.email);
  await expect(page.getByLabel('Setup key')).toHaveText(app.totp.secret.base32.match(/.{1,4}/g)!.join(' '));
  await scan(page);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Enter the 6-digit code your authenticator app shows now.')).toBeVisible();
  await expect(page.getByRole('note')).toHaveText("Don't close or refresh this window");
  await scan(page);
  await typeCode(page, app.next());

  await expect(page).toHaveURL(/\/healthbook\/settings\/profile\?tabId=3$/);
  await expect(page.getByRole('status').filter({ hasText: 'Two-step verification is now on.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your second factors' })).toContainText('Codes come from your authenticator app');
  await scan(page);
  await signOut(page);

  // Signing in: the code just used is refused; a fresh one opens the dashboard.
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/verify$/);
  await expect(verifyHeading(page)).toBeVisible();
  await expect(page.getByText('Open your authenticator app and enter the 6-digit code it shows below to continue to your account')).toBeVisible();
  await scan(page);
  await typeCode(page, app.last());
  await expect(page.getByRole('alert')).toContainText('There was an error logging in to your account.');
  await scan(page);
  // Clear the boxes from the last one with Backspace, then type the new code.
  await page.getByRole('textbox', { name: 'Digit 6 of 6' }).click();
  for (let i = 0; i < 6; i++) await page.keyboard.press('Backspace');
  expect(await codeBoxes(page)).toEqual(['', '', '', '', '', '']);
  await typeCode(page, app.next());
  await expectDashboard(page, user.first_name);
  await scan(page);
});
