import { expect, test } from '@playwright/test';
import { ADMIN, DEMO_PASSWORD, expectDashboard, invite, mailLink, newPerson, passwordField, landing, scan, signIn, signOut, SUBJECTS, uniqueEmail, uniqueName } from './accounts';
import { accessCode, waitForMail } from './mailbox';

test('invite → access code → sign up → confirm the e-mail → sign in', async ({ page }) => {
  test.setTimeout(150_000);
  const firstName = uniqueName('Iris');
  const lastName = uniqueName('Joiner');
  const email = uniqueEmail('join');
  const password = 'Joiner#2026a';

  // The organisation admin invites a patient.
  await signIn(page, ADMIN, DEMO_PASSWORD);
  await expect(page).toHaveURL(landing(ADMIN));
  await page.goto('/healthbook/addUser/invite');
  await expect(page.getByRole('heading', { level: 1, name: 'Invite a patient' })).toBeVisible();
  await expect(page).toHaveTitle('Invite a patient | HealthBook+');
  await scan(page);
  await page.getByLabel('First name').fill(firstName);
  await page.getByLabel('Last name').fill(lastName);
  await page.getByLabel('Date of birth').fill('06/14/1988');
  await page.getByRole('radio', { name: 'Female' }).check();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const sent = page.getByRole('status').filter({ hasText: `The invitation was sent to ${email}.` });
  await expect(sent).toBeVisible();
  await scan(page);

  // The access code comes in the invitation e-mail (and was shown to the admin once).
  const invitation = await waitForMail(email, SUBJECTS.invitation);
  const code = accessCode(invitation);
  expect(code).toMatch(/^[A-HJ-NP-Z2-9]{10}$/);
  await expect(sent).toContainText(code);
  expect(mailLink(invitation)).toMatch(/\/healthbook\/access-code$/);

  await page.goto('/healthbook/dashboard');
  await expectDashboard(page, 'Alex');
  await signOut(page);

  // The invited patient enters the code.
  await page.goto('/healthbook/access-code');
  await expect(page.getByRole('heading', { level: 1, name: 'Enter your access code' })).toBeVisible();
  await expect(page.getByText('To create an account you need the access code from the invitation we sent you by e-mail.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Resend access code' })).toHaveAttribute('href', '/healthbook/code-retrieval');
  await scan(page);
  await page.getByLabel('Access code').fill(code);
  await page.getByRole('button', { name: 'Enter Code' }).click();

  // Sign-up: the invitation read-only, the e-mail pre-filled.
  await expect(page).toHaveURL(/\/healthbook\/signup$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Create an account' })).toBeVisible();
  await expect(page).toHaveTitle('Create an account | HealthBook+');
  for (const [label, value] of [
    ['First name', firstName],
    ['Last name', lastName],
    ['Date of birth', '06/14/1988'],
    ['Gender', 'Female'],
  ] as const) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveValue(value);
    await expect(field).toHaveAttribute('readonly', '');
  }
  await expect(page.getByLabel(/^E-mail/)).toHaveValue(email);
  await expect(page.getByLabel(/^E-mail/)).toBeEditable();
  const signUp = page.getByRole('button', { name: 'Sign Up' });
  await expect(signUp).toBeDisabled();
  await scan(page);

  // The password rules.
  const confirm = page.getByLabel(/^Confirm password/);
  await passwordField(page).fill('weakpass');
  await passwordField(page).blur();
  await expect(page.getByText('Passwords does not meet requirements')).toBeVisible();
  await scan(page);
  await passwordField(page).fill(password);
  await expect(page.getByText('Passwords does not meet requirements')).toBeHidden();
  await confirm.fill(`${password}x`);
  await confirm.blur();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await scan(page);
  await confirm.fill(password);
  await expect(page.getByText('Passwords match', { exact: true })).toBeVisible();
  await expect(page.getByText('Passwords do not match')).toBeHidden();
  await expect(signUp).toBeDisabled();

  // The Terms of Service open in a dialog, which closes without ticking the box.
  await page.getByRole('button', { name: 'Terms of Service' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms of Service' });
  await expect(terms.getByRole('heading', { level: 2, name: 'Terms of Service' })).toBeVisible();
  await scan(page);
  await terms.getByRole('button', { name: 'Close' }).click();
  await expect(terms).toBeHidden();
  const accept = page.getByRole('checkbox', { name: /I agree to the Terms of Service and the Privacy Policy/ });
  await expect(accept).not.toBeChecked();
  await accept.check();
  await expect(signUp).toBeEnabled();
  await signUp.click();

  // Check your e-mail; OK leads to sign-in.
  const checkEmail = page.getByRole('dialog', { name: 'Check your email' });
  await expect(checkEmail).toContainText(`Please check your email (${email})`);
  await scan(page);
  await checkEmail.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/healthbook\/login$/);

  // Signing in before confirming is refused with its own message.
  await signIn(page, email, password);
  await expect(page.getByRole('alert').filter({ hasText: 'Please confirm your e-mail address before signing in.' })).toBeVisible();
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  await scan(page);

  // The confirmation link of the e-mail.
  const confirmation = await waitForMail(email, SUBJECTS.confirm);
  const link = mailLink(confirmation);
  expect(link).toMatch(/\/healthbook\/email\/confirm\/[^/]+\/[^/]+$/);
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'E-mail address confirmed' })).toBeVisible();
  await expect(page.getByText('Your e-mail address is confirmed. You can sign in now.')).toBeVisible();
  await scan(page);
  await page.getByRole('link', { name: 'Sign in' }).click();

  await signIn(page, email, password);
  await expectDashboard(page, firstName);
  await expect(page).toHaveTitle('Dashboard | HealthBook+');
  await scan(page);
});

test('the sign-up page in Greek', async ({ page }) => {
  const person = newPerson('greek');
  const code = await invite(person);

  await page.goto('/healthbook/access-code');
  await page.getByRole('button', { name: 'Ελληνικά' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'el');
  await expect(page.getByRole('heading', { level: 1, name: 'Εισαγάγετε τον κωδικό πρόσβασής σας' })).toBeVisible();
  await scan(page);
  await page.getByLabel('Κωδικός πρόσβασης').fill(code);
  await page.getByRole('button', { name: 'Υποβολή κωδικού' }).click();

  await expect(page).toHaveURL(/\/healthbook\/signup$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Δημιουργία λογαριασμού' })).toBeVisible();
  await expect(page).toHaveTitle('Δημιουργία λογαριασμού | HealthBook+');
  await expect(page.getByLabel('Όνομα', { exact: true })).toHaveValue(person.first_name);
  await expect(page.getByLabel('Επώνυμο', { exact: true })).toHaveValue(person.last_name);
  await expect(page.getByLabel('Ημερομηνία γέννησης', { exact: true })).toHaveValue('06/14/1988');
  await expect(page.getByLabel('Φύλο', { exact: true })).toHaveValue('Γυναίκα');
  await expect(page.getByText('Τουλάχιστον 8 χαρακτήρες, με κεφαλαία και πεζά γράμματα')).toBeVisible();
  await expect(page.getByRole('checkbox', { name: /Αποδέχομαι τους Όρους Χρήσης και την Πολιτική Απορρήτου/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Εγγραφή' })).toBeDisabled();

  const password = page.getByLabel(/^Συνθηματικό/);
  const confirm = page.getByLabel(/^Επιβεβαίωση συνθηματικού/);
  await password.fill('abc');
  await password.blur();
  await expect(page.getByText('Το συνθηματικό δεν πληροί τις απαιτήσεις')).toBeVisible();
  await password.fill('Kalimera#2026');
  await confirm.fill('Kalimera#2025');
  await confirm.blur();
  await expect(page.getByText('Τα συνθηματικά δεν ταιριάζουν')).toBeVisible();
  await scan(page);
  await confirm.fill('Kalimera#2026');
  await expect(page.getByText('Τα συνθηματικά ταιριάζουν')).toBeVisible();
  await scan(page);
});
