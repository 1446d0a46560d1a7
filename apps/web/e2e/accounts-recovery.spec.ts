import { expect, test } from '@playwright/test';
import { expectDashboard, invite, mailLink, newPerson, passwordField, registeredPatient, scan, signIn, signOut, SUBJECTS } from './accounts';
import { accessCode, waitForMail } from './mailbox';

test('forgot password → e-mailed link → new password', async ({ page }) => {
  test.setTimeout(60_000);
  const user = await registeredPatient('reset', 'Before#Reset1');
  const newPassword = 'After#Reset22';

  await page.goto('/healthbook/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/healthbook\/forgotpassword$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Password Assistance' })).toBeVisible();
  await expect(page).toHaveTitle('Password Assistance | HealthBook+');
  await scan(page);

  const email = page.getByLabel('Email address');
  const submit = page.getByRole('button', { name: 'Submit' });
  await submit.click();
  await expect(page.getByText('Email address is required')).toBeVisible();
  await email.fill('not-an-address');
  await email.blur();
  await expect(page.getByText('Invalid email address')).toBeVisible();
  await scan(page);
  // Typed in capitals: it is lower-cased before sending.
  await email.fill(user.email.toUpperCase());
  await submit.click();
  await expect(page.getByRole('status')).toHaveText('You will receive an email with instructions');
  await expect(submit).toBeDisabled();
  await scan(page);

  const mail = await waitForMail(user.email, SUBJECTS.reset);
  const link = mailLink(mail);
  expect(link).toMatch(/\/healthbook\/password\/reset\/[^/]+\/[^/]+$/);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  await expect(page.getByText('Choose a new password for your account.')).toBeVisible();
  await scan(page);
  const confirm = page.getByLabel(/^Confirm new password/);
  await page.getByLabel(/^New password/).fill('short');
  await page.getByLabel(/^New password/).blur();
  await expect(page.getByText('Passwords does not meet requirements')).toBeVisible();
  await page.getByLabel(/^New password/).fill(newPassword);
  await confirm.fill(newPassword);
  await expect(page.getByText('Passwords match', { exact: true })).toBeVisible();
  await scan(page);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Password reset' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Your password has been reset. You can sign in with the new password.');
  await scan(page);
  await page.getByRole('link', { name: 'Sign in' }).click();

  await signIn(page, user.email, newPassword);
  await expectDashboard(page, user.first_name);
  await signOut(page);

  await signIn(page, user.email, user.password);
  await expect(page.getByRole('alert').filter({ hasText: 'The email or password is incorrect. Please check them and try again.' })).toBeVisible();
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  await expect(passwordField(page)).toHaveValue(user.password);
  await scan(page);
});

test('code retrieval sends a new access code for a pending invitation', async ({ page }) => {
  test.setTimeout(60_000);
  const person = newPerson('retrieval', { dob: '1979-11-05', gender: 'male' });
  const oldCode = await invite(person);
  await waitForMail(person.email, SUBJECTS.invitation);

  await page.goto('/healthbook/access-code');
  await page.getByRole('link', { name: 'Resend access code' }).click();
  await expect(page).toHaveURL(/\/healthbook\/code-retrieval$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Code Retrieval' })).toBeVisible();
  await expect(page).toHaveTitle('Code Retrieval | HealthBook+');
  await scan(page);

  // The checks of the form.
  const submit = page.getByRole('button', { name: 'Submit' });
  await submit.click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await expect(page.getByText('Date of birth is required')).toBeVisible();
  await page.getByLabel('First name').fill('Mary Ann');
  await page.getByLabel('Last name').fill('O-Brien');
  await page.getByLabel('Date of birth').fill('13/05/1979');
  await page.getByLabel('Date of birth').blur();
  await expect(page.getByText('Invalid name format')).toHaveCount(2);
  await expect(page.getByText('Invalid date format')).toBeVisible();
  await scan(page);
  await page.getByLabel('Date of birth').fill('11/05/1879');
  await expect(page.getByText('Invalid date format')).toBeVisible();

  await page.getByLabel('First name').fill(person.first_name);
  await page.getByLabel('Last name').fill(person.last_name.toLowerCase());
  await page.getByLabel('Date of birth').fill('11/05/1979');
  await expect(page.getByText('Invalid name format')).toHaveCount(0);
  await expect(page.getByText('Invalid date format')).toBeHidden();
  await submit.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Thank you' })).toBeVisible();
  await expect(page.getByText('Your information has been submitted.')).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  await scan(page);

  // The e-mail carries a new code; the old one stops working.
  const mail = await waitForMail(person.email, SUBJECTS.codeRetrieval);
  const newCode = accessCode(mail);
  expect(newCode).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
  expect(newCode).not.toBe(oldCode.replace(/[^A-Z0-9]/g, ''));
  expect(mailLink(mail)).toMatch(/\/healthbook\/access-code$/);

  await page.goto(mailLink(mail));
  const field = page.getByLabel('Access code');
  await field.fill(oldCode);
  await page.getByRole('button', { name: 'Enter Code' }).click();
  await expect(page.getByText('Access code is invalid')).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await scan(page);
  await field.fill(newCode);
  await expect(page.getByText('Access code is invalid')).toBeHidden();
  await page.getByRole('button', { name: 'Enter Code' }).click();
  await expect(page).toHaveURL(/\/healthbook\/signup$/);
  await expect(page.getByLabel('First name', { exact: true })).toHaveValue(person.first_name);
  await expect(page.getByLabel('Date of birth', { exact: true })).toHaveValue('11/05/1979');
  await expect(page.getByLabel('Gender', { exact: true })).toHaveValue('Male');
  await expect(page.getByLabel(/^E-mail/)).toHaveValue(person.email);
});
