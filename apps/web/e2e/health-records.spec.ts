// Health records through the pages: add, check, edit, see the history, attach, delete; the
// medical date dialog and its errors; "Exit without saving?"; a flag's "No" shown on the record's
// page as "Yes" is; a phone-width pass in Greek.
import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ timeout: 150_000 });

/** A tiny PNG (1×1, red). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

async function signedIn(page: Page, prefix: string) {
  const user = await registeredPatient(prefix);
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  return user;
}

/** Opens a medical date field's dialog and picks a month of a year (the year picker pages 12 years at a time). */
async function pickMonthAndYear(page: Page, field: string, month: string, year: number) {
  await page.getByRole('textbox', { name: field }).click();
  const dialog = page.getByRole('dialog', { name: field });
  await dialog.getByRole('radio', { name: 'Month & Year' }).check();
  const years = dialog.getByRole('group', { name: 'Year' });
  while (!(await years.getByRole('button', { name: String(year), exact: true }).isVisible())) {
    await dialog.getByRole('button', { name: 'Previous years' }).click();
  }
  await years.getByRole('button', { name: String(year), exact: true }).click();
  await dialog.getByRole('group', { name: 'Month' }).getByRole('button', { name: month }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('a condition with a Month & Year date: refused out of range, saved, edited, its history, deleted', async ({ page }) => {
  const user = await signedIn(page, 'hr-condition');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Medical History' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-record\/condition$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Conditions' })).toBeVisible();
  await expect(page.getByText('You have not added any conditions yet.')).toBeVisible();
  await scan(page);

  await page.getByRole('link', { name: 'Add condition' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'New condition' })).toBeVisible();
  await page.getByLabel('Condition', { exact: false }).first().fill('Migraine');
  await pickMonthAndYear(page, 'Start date', 'May', 2019);
  await expect(page.getByRole('textbox', { name: 'Start date' })).toHaveValue('May 2019');
  await page.getByLabel('Intensity (1-10)').fill('11');
  await scan(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Ensure this value is less than or equal to 10.')).toBeVisible();
  await expect(page.getByLabel('Intensity (1-10)')).toBeFocused();
  await page.getByLabel('Intensity (1-10)').fill('6');
  await page.getByRole('button', { name: 'Save' }).click();

  await expect(page.getByText('Condition successfully saved.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Migraine' })).toBeVisible();
  const details = page.getByRole('region', { name: 'Details' });
  await expect(details.getByText('May 2019')).toBeVisible();
  await expect(details.getByText('6', { exact: true })).toBeVisible();
  await scan(page);

  // Edit: "Exit without saving?" guards the change; then saving it.
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Intensity (1-10)').fill('7');
  await page.getByRole('link', { name: 'Cancel' }).click();
  const leave = page.getByRole('dialog', { name: 'Exit without saving?' });
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(page.getByLabel('Intensity (1-10)')).toHaveValue('7');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Health Record successfully saved.')).toBeVisible();
  await expect(details.getByText('7', { exact: true })).toBeVisible();

  // The history: who changed what.
  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByText(`Changed by ${user.first_name} ${user.last_name}`)).toBeVisible();
  await expect(page.getByText('Intensity (1-10): 6 → 7')).toBeVisible();
  await expect(page.getByText(`Created by ${user.first_name} ${user.last_name}`)).toBeVisible();

  // Delete, confirmed.
  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this record?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-record\/condition$/);
  await expect(page.getByText('Health Record successfully deleted.')).toBeVisible();
  await expect(page.getByText('You have not added any conditions yet.')).toBeVisible();
});

test('the date dialog refuses a date before birth; a lab result must be a number; a medication; an allergy with a reaction and an attachment', async ({ page }) => {
  await signedIn(page, 'hr-lab');
  await page.goto('/healthbook/health-record/lab/new');
  await page.getByLabel('Test', { exact: false }).first().fill('HbA1c');
  await page.getByLabel('Result', { exact: false }).first().fill('high');
  // Born 14 June 1988: 1985 is before that.
  await page.getByRole('textbox', { name: 'Test date' }).click();
  const dialog = page.getByRole('dialog', { name: 'Test date' });
  await dialog.getByRole('radio', { name: 'Year only' }).check();
  while (!(await dialog.getByRole('button', { name: '1985', exact: true }).isVisible())) await dialog.getByRole('button', { name: 'Previous years' }).click();
  await dialog.getByRole('button', { name: '1985', exact: true }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('The selected date is before your birth date');
  await scan(page);
  await dialog.getByRole('radio', { name: 'In the past' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('textbox', { name: 'Test date' })).toHaveValue('In the past');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('A valid number is required.')).toBeVisible();
  await page.getByLabel('Result', { exact: false }).first().fill('5.4');
  await page.getByLabel('Units').fill('%');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Lab result successfully saved.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Details' }).getByText('In the past')).toBeVisible();

  // A medication.
  await page.goto('/healthbook/health-record/medication/new');
  await page.getByLabel('Medicine', { exact: false }).first().fill('Metformin');
  await page.getByLabel('Dosage').fill('500');
  await page.getByRole('combobox', { name: 'Unit' }).click();
  await page.getByRole('option', { name: 'mg', exact: true }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Medication successfully saved.')).toBeVisible();

  // An allergy with a reaction, private, and a file attached.
  await page.goto('/healthbook/health-record/allergy/new');
  await page.getByLabel('Substance', { exact: false }).first().fill('Penicillin');
  await page.getByLabel('Reaction', { exact: true }).fill('Hives');
  await page.getByRole('combobox', { name: 'Criticality' }).click();
  await page.getByRole('option', { name: 'High' }).click();
  await page.getByLabel('For my eyes only').check();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Allergy successfully saved.')).toBeVisible();
  await expect(page.getByText('For my eyes only')).toBeVisible();
  await page.locator('input[type=file]').setInputFiles({ name: 'rash.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('rash.png was attached.')).toBeVisible();
  const attachments = page.getByRole('region', { name: 'Attachments' });
  await expect(attachments.getByText('rash.png', { exact: true })).toBeVisible();
  await attachments.getByRole('button', { name: 'Preview rash.png' }).click();
  await expect(page.getByRole('dialog', { name: 'rash.png' }).getByRole('img', { name: 'rash.png' })).toBeVisible();
  await page.keyboard.press('Escape');
  await scan(page);

  // The overview counts them.
  await page.goto('/healthbook/health-record');
  await expect(page.getByRole('link', { name: /Allergies\s*1 record/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Lab results\s*1 record/ })).toBeVisible();
  await scan(page);
});

test('a lab result outside the normal range says "No" in the list and on its page, as one inside it says "Yes"', async ({ page }) => {
  const user = await signedIn(page, 'hr-lab-range');
  const token = await apiLogin(user.email, user.password);
  const made: Record<string, number> = {};
  for (const [test, within] of [['Ferritin', false], ['Haemoglobin', true]] as const) {
    const res = await api<{ id: number }>('/api/v1/hr/lab/', { token, body: { test, result: 8, units: 'ng/mL', within_normal_range: within } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made[test] = res.body.id;
  }
  await page.goto('/healthbook/health-record/lab');
  await expect(page.getByText('Ferritin').first()).toBeVisible();
  const row = (name: string) => page.getByRole('row').filter({ hasText: name });
  await expect(row('Ferritin')).toContainText('No');
  await expect(row('Haemoglobin')).toContainText('Yes');

  const details = page.getByRole('region', { name: 'Details' });
  for (const [test, answer] of [['Ferritin', 'No'], ['Haemoglobin', 'Yes']] as const) {
    await page.goto(`/healthbook/health-record/lab/${made[test]}`);
    await expect(page.getByRole('heading', { level: 1, name: test })).toBeVisible();
    await expect(details.getByRole('term').filter({ hasText: 'Within the normal range' })).toHaveCount(1);
    await expect(details.locator('dt', { hasText: 'Within the normal range' }).locator('xpath=following-sibling::dd[1]')).toHaveText(answer);
  }
});

test.describe('phone, Greek', () => {
  test.use({ viewport: { width: 390, height: 844 }, locale: 'el-GR' });

  test('the overview, a list as cards, and the form in Greek at phone width', async ({ page }) => {
    const user = await registeredPatient('hr-phone');
    await page.goto('/healthbook/login');
    await page.locator('input[type=email]').fill(user.email);
    await page.locator('input[autocomplete=current-password]').fill(user.password);
    await page.locator('form button[type=submit]').click();
    await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
    await page.goto('/healthbook/health-record');
    await expect(page.getByRole('heading', { level: 1, name: 'Φάκελος υγείας' })).toBeVisible();
    await scan(page);
    await page.goto('/healthbook/health-record/travelhistory/new');
    await page.getByRole('combobox', { name: 'Χώρα' }).fill('Ιταλ');
    await page.getByRole('option', { name: 'Ιταλία' }).click();
    await scan(page);
    await page.locator('form button[type=submit]').click();
    await expect(page).toHaveURL(/\/health-record\/travelhistory\/[0-9]+$/);
    await page.goto('/healthbook/health-record/travelhistory');
    await expect(page.getByRole('link', { name: 'Ιταλία' })).toBeVisible();
    await scan(page);
  });
});
