// Health records through the pages: add, check, edit, see the history, attach, delete; the
// medical date dialog and its errors; "Exit without saving?"; a lab result's range, flag and
// trend, a medicine's dosing as an instruction (en and el); a phone-width pass in Greek.
import path from 'node:path';
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

/** With E2E_SHOTS_DIR set, a screenshot of the page as checked (to look at it). */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: path.join(process.env.E2E_SHOTS_DIR, `clinical-${name}.png`), fullPage: true });
}

test('a lab result shows its range and flag in the list and on its page, its trend with the range shaded; a medicine reads as an instruction', async ({ page }) => {
  const user = await signedIn(page, 'hr-lab-range');
  const token = await apiLogin(user.email, user.password);
  const made: Record<string, number> = {};
  const labs = [
    ['Ferritin', { result: 8, units: 'ng/mL', within_normal_range: false }],
    ['Haemoglobin', { result: 13.5, units: 'g/dL', within_normal_range: true }],
    ['Glucose-1', { result: 5.0, units: 'mmol/L', range_low: 3.9, range_high: 5.5, test_date: '2025-01-10' }],
    // Another unit: converted for the chart (glucose's molar mass is known), shown as entered.
    ['Glucose-2', { result: 108, units: 'mg/dL', range_low: 70, range_high: 99, test_date: '2025-06-10' }],
    ['Glucose', { result: 7.2, units: 'mmol/L', range_low: 3.9, range_high: 5.5, test_date: '2026-01-10' }],
  ] as const;
  for (const [name, body] of labs) {
    const res = await api<{ id: number }>('/api/v1/hr/lab/', { token, body: { test: name.replace(/-[0-9]$/, ''), test_date_part: 'test_date' in body ? 'day' : null, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    made[name] = res.body.id;
  }
  await page.goto('/healthbook/health-record/lab');
  await expect(page.getByText('Ferritin').first()).toBeVisible();
  const row = (name: string) => page.getByRole('row').filter({ hasText: name });
  await expect(row('Ferritin')).toContainText('Abnormal');
  await expect(row('Haemoglobin')).toContainText('Normal');
  await expect(row('7.2 mmol/L')).toContainText('3.9–5.5 mmol/L');
  await expect(row('7.2 mmol/L')).toContainText('High');
  await shot(page, 'lab-list-en-desktop');

  // A term of the record's details (the region is named in the page's language).
  const value = (term: string) => page.locator('main dl dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
  for (const [test, flag] of [['Ferritin', 'Abnormal'], ['Haemoglobin', 'Normal']] as const) {
    await page.goto(`/healthbook/health-record/lab/${made[test]}`);
    await expect(page.getByRole('heading', { level: 1, name: test })).toBeVisible();
    await expect(value('Flag')).toHaveText(flag);
  }
  await page.goto(`/healthbook/health-record/lab/${made.Glucose}`);
  await expect(value('Result')).toHaveText('7.2 mmol/L');
  await expect(value('Reference range')).toHaveText('3.9–5.5 mmol/L');
  await expect(value('Flag')).toHaveText('High');
  await shot(page, 'lab-detail-en-desktop');

  // The trend of the test, from the result: a chart with the range shaded, and the table.
  await page.getByRole('link', { name: 'See the trend' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Glucose over time' })).toBeVisible();
  await expect(page.getByRole('figure', { name: /Glucose in mmol\/L over time/ }).getByTestId('reference-range-band')).toBeVisible();
  const table = page.getByRole('region', { name: 'Results of Glucose' });
  await expect(table.getByRole('row')).toHaveCount(4);
  await expect(table.getByRole('row').filter({ hasText: '108 mg/dL' })).toContainText('5.99 mmol/L (as entered: 108 mg/dL)');
  await expect(table.getByRole('row').filter({ hasText: '108 mg/dL' })).toContainText('High');
  await scan(page);
  await shot(page, 'lab-trend-en-desktop');

  // A medicine: the form builds the instruction as it is filled in; the record reads it.
  await page.goto('/healthbook/health-record/medication/new');
  await page.getByLabel('Medicine', { exact: false }).first().fill('Metformin');
  const preview = page.getByTestId('dosing-preview');
  await expect(preview).toContainText('Fill in the dose');
  await page.getByLabel('Dosage').fill('1');
  await page.getByRole('combobox', { name: 'Unit' }).click();
  await page.getByRole('option', { name: 'Tablet', exact: true }).click();
  await page.getByLabel('Every', { exact: true }).fill('12');
  await page.getByRole('combobox', { name: 'Period' }).click();
  await page.getByRole('option', { name: 'Hours', exact: true }).click();
  await expect(preview).toContainText('1 tablet every 12 hours');
  await page.getByLabel('Only when needed').check();
  await expect(preview).toContainText('1 tablet every 12 hours, as needed');
  await scan(page);
  await shot(page, 'medication-form-en-desktop');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Medication successfully saved.')).toBeVisible();
  await expect(value('How to take it')).toHaveText('1 tablet every 12 hours, as needed');
  await page.goto('/healthbook/health-record/medication');
  await expect(row('Metformin')).toContainText('1 tablet every 12 hours, as needed');

  // The same in Greek, and at phone width.
  await page.evaluate(() => localStorage.setItem('language', 'el'));
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/healthbook/health-record/lab');
  await expect(page.getByText('Υψηλό').first()).toBeVisible();
  await shot(page, 'lab-list-el-phone');
  await page.goto(`/healthbook/health-record/lab/${made.Glucose}`);
  await expect(value('Ένδειξη')).toHaveText('Υψηλό');
  await shot(page, 'lab-detail-el-phone');
  await page.getByRole('link', { name: 'Δείτε την πορεία' }).click();
  await expect(page.getByTestId('reference-range-band')).toBeVisible();
  await scan(page);
  await shot(page, 'lab-trend-el-phone');
  await page.goto('/healthbook/health-record/medication');
  await expect(page.getByText('1 δισκίο κάθε 12 ώρες, όταν χρειάζεται')).toBeVisible();
  await shot(page, 'medication-list-el-phone');
  await page.goto('/healthbook/health-record/medication/new');
  await page.getByLabel('Δοσολογία').fill('2');
  await page.getByRole('combobox', { name: 'Μονάδα', exact: true }).click();
  await page.getByRole('option', { name: 'Δισκίο', exact: true }).click();
  await page.getByLabel('Πόσες φορές').fill('2');
  await page.getByRole('combobox', { name: 'Χρονική μονάδα' }).click();
  await page.getByRole('option', { name: 'Ημέρες', exact: true }).click();
  await expect(page.getByTestId('dosing-preview')).toContainText('2 δισκία δύο φορές την ημέρα');
  await scan(page);
  await shot(page, 'medication-form-el-phone');
  if (process.env.E2E_SHOTS_DIR) {
    // The other two: English at phone width, Greek on a desktop.
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    await page.goto(`/healthbook/health-record/lab/trend?test=Glucose`);
    await expect(page.getByTestId('reference-range-band')).toBeVisible();
    await shot(page, 'lab-trend-en-phone');
    await page.goto('/healthbook/health-record/lab');
    await expect(page.getByText('High').first()).toBeVisible();
    await shot(page, 'lab-list-en-phone');
    await page.evaluate(() => localStorage.setItem('language', 'el'));
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto('/healthbook/health-record/lab');
    await expect(page.getByText('Υψηλό').first()).toBeVisible();
    await shot(page, 'lab-list-el-desktop');
    await page.goto(`/healthbook/health-record/lab/trend?test=Glucose`);
    await expect(page.getByTestId('reference-range-band')).toBeVisible();
    await shot(page, 'lab-trend-el-desktop');
    await page.goto(`/healthbook/health-record/lab/${made.Glucose}`);
    await expect(value('Ένδειξη')).toHaveText('Υψηλό');
    await shot(page, 'lab-detail-el-desktop');
    await page.goto('/healthbook/health-record/medication/new');
    await page.getByLabel('Δοσολογία').fill('1');
    await shot(page, 'medication-form-el-desktop');
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
