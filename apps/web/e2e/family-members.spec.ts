// Family members through the pages: a parent adds a child (the form's checks first), gives the
// child an account of their own by e-mail (an address with an account is refused), opens the
// child's record and records a vaccination there; the child's record — not the parent's — holds
// it. Then the child is removed with all their data. Once in Greek at phone width. Every page and
// dialog passes the axe scan. FAMILY_SHOTS_DIR keeps screenshots (desktop and phone, en and el).
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { FamilyMember } from '@healthbook/shared/contracts/family-members';
import { api, apiLogin, registeredPatient, scan, signIn, uniqueEmail } from './accounts';

test.describe.configure({ timeout: 150_000 });

const SHOTS = process.env.FAMILY_SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function signedIn(browser: Browser, prefix: string, options: { phone?: boolean; greek?: boolean } = {}) {
  const user = await registeredPatient(prefix);
  const context = await browser.newContext({ viewport: options.phone ? PHONE : DESKTOP, locale: options.greek ? 'el-GR' : 'en-US' });
  const page = await context.newPage();
  if (options.greek) {
    await page.goto('/healthbook/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await page.locator('input[type=email]').fill(user.email);
    await page.locator('input[autocomplete=current-password]').fill(user.password);
    await page.locator('form button[type=submit]').click();
  } else {
    await signIn(page, user.email, user.password);
  }
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  return { page, user };
}

test('a parent adds a child, gives them an account, and records a vaccination in the child’s record', async ({ browser }) => {
  const { page, user } = await signedIn(browser, 'family');

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Family members' }).click();
  await expect(page).toHaveURL(/\/healthbook\/family-members$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Family members' })).toBeVisible();
  await expect(page.getByText('You have not added a family member yet.')).toBeVisible();
  await scan(page);
  await shot(page, 'family-empty-desktop-en');

  // The form's checks, then a child.
  await page.getByRole('button', { name: 'Add a family member' }).click();
  const form = page.getByRole('dialog', { name: 'Add a family member' });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('First name is required')).toBeVisible();
  await expect(form.getByText('Choose who they are to you.')).toBeVisible();
  await expect(form.getByText('Choose one of the options.')).toBeVisible();
  await scan(page);
  await shot(page, 'family-form-errors-desktop-en');
  await form.getByLabel('First name').fill('Eleni');
  await form.getByLabel('Last name').fill(user.last_name);
  await form.getByLabel('Date of birth').fill('2099-01-01');
  await form.getByRole('radio', { name: 'Child' }).check();
  await form.getByRole('radio', { name: 'Female' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('The date of birth cannot be in the future')).toBeVisible();
  await form.getByLabel('Date of birth').fill('05/04/2019');
  await shot(page, 'family-form-desktop-en');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Eleni ' + user.last_name + ' was added.', { exact: false })).toBeVisible();
  await expect(form).toHaveCount(0);

  const card = page.getByRole('article', { name: `Eleni ${user.last_name}` });
  await expect(card.getByText('Child · Born May 4, 2019 · Female')).toBeVisible();
  await expect(card.getByText('Managed by you')).toBeVisible();
  await scan(page);
  await shot(page, 'family-list-desktop-en');

  // An account of her own: an address that has an account is refused; then the invitation leaves.
  await card.getByRole('button', { name: 'Give them their own account' }).click();
  const invite = page.getByRole('dialog', { name: 'Give Eleni their own account' });
  await invite.getByLabel('Their e-mail address').fill(user.email);
  await invite.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(invite.getByText('An account with this e-mail already exists in this organisation.')).toBeVisible();
  await scan(page);
  await shot(page, 'family-invite-desktop-en');
  const childEmail = uniqueEmail('eleni');
  await invite.getByLabel('Their e-mail address').fill(childEmail);
  await invite.getByRole('button', { name: 'Send the invitation' }).click();
  await expect(page.getByText(`The invitation was sent to ${childEmail}.`)).toBeVisible();
  await expect(card.getByText(`Invitation sent to ${childEmail}`, { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Send the invitation again' })).toBeVisible();
  await shot(page, 'family-invited-desktop-en');

  // Open her record and record a vaccination there.
  await card.getByRole('button', { name: 'Open record' }).click();
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  await page.goto('/healthbook/health-record/immunization/new');
  await page.getByLabel('Vaccine', { exact: false }).first().fill('MMR');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Immunization successfully saved.')).toBeVisible();

  // The child's record holds it; the parent's does not.
  const token = await apiLogin(user.email, user.password);
  const members = await api<FamilyMember[]>('/api/v1/family-members/', { token });
  expect(members.status).toBe(200);
  const child = members.body.find((m) => m.first_name === 'Eleni')!;
  expect(child).toMatchObject({ relationship: 'child', dob: '2019-05-04', has_account: false, invited: { email: childEmail, status: 'pending' } });
  const childRecords = await api<{ results: Array<{ vaccine_name: string }> }>(`/api/v1/hr/immunization/?patient=${child.patient_id}`, { token });
  expect(childRecords.body.results.map((r) => r.vaccine_name)).toEqual(['MMR']);
  const ownRecords = await api<{ count: number }>('/api/v1/hr/immunization/', { token });
  expect(ownRecords.body.count).toBe(0);

  // Removing her takes her record with it (confirmation first).
  await page.goto('/healthbook/family-members');
  await page.getByRole('article', { name: `Eleni ${user.last_name}` }).getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: `Remove Eleni ${user.last_name}?` });
  await expect(confirm.getByText('This cannot be undone.', { exact: false })).toBeVisible();
  await scan(page);
  await shot(page, 'family-remove-desktop-en');
  await confirm.getByRole('button', { name: 'Remove for good' }).click();
  await expect(page.getByText(`Eleni ${user.last_name} and their record were removed.`)).toBeVisible();
  await expect(page.getByText('You have not added a family member yet.')).toBeVisible();
  expect((await api(`/api/v1/hr/immunization/?patient=${child.patient_id}`, { token })).status).toBe(404);
  await page.context().close();
});

test('in Greek at phone width: adding a parent', async ({ browser }) => {
  const { page, user } = await signedIn(browser, 'family-el', { phone: true, greek: true });
  await page.goto('/healthbook/family-members');
  await expect(page.getByRole('heading', { level: 1, name: 'Μέλη οικογένειας' })).toBeVisible();
  await scan(page);
  await shot(page, 'family-empty-phone-el');
  await page.getByRole('button', { name: 'Προσθήκη μέλους οικογένειας' }).click();
  const form = page.getByRole('dialog', { name: 'Προσθήκη μέλους οικογένειας' });
  await form.getByRole('button', { name: 'Αποθήκευση' }).click();
  await expect(form.getByText('Επιλέξτε ποιος/ποια είναι για εσάς.')).toBeVisible();
  await scan(page);
  await shot(page, 'family-form-phone-el');
  await form.getByLabel('Όνομα').fill('Γιώργος');
  await form.getByLabel('Επώνυμο').fill(user.last_name);
  await form.getByLabel('Ημερομηνία γέννησης').fill('1950-02-11');
  await form.getByRole('radio', { name: 'Γονέας' }).check();
  await form.getByRole('radio', { name: 'Άνδρας' }).check();
  await form.getByRole('button', { name: 'Αποθήκευση' }).click();
  const card = page.getByRole('article', { name: `Γιώργος ${user.last_name}` });
  await expect(card.getByText('Γονέας', { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Άνοιγμα φακέλου' })).toBeVisible();
  await scan(page);
  await shot(page, 'family-list-phone-el');
  await page.context().close();
});
