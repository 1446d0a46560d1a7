// The Document Center: a folder, a document uploaded, previewed, moved and attached to a record,
// then seen among the record's attachments; the demo patient's seeded documents.
import { expect, test } from '@playwright/test';
import { onePagePdf } from '../../server/src/db/seed/demo-files';
import { DEMO_PASSWORD, registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ timeout: 150_000 });

test('a folder, a document uploaded, previewed, moved and attached to a record', async ({ page }) => {
  const user = await registeredPatient('docs');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);

  // A record to attach to.
  await page.goto('/healthbook/health-record/medicalvisit/new');
  await page.getByLabel('Reason for the visit', { exact: false }).first().fill('Cardiology check');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Medical visit successfully saved.')).toBeVisible();

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Document Center' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Document Center' })).toBeVisible();
  await expect(page.getByText('No documents here yet.')).toBeVisible();
  await scan(page);

  // A folder.
  await page.getByRole('button', { name: 'New folder' }).click();
  const naming = page.getByRole('dialog', { name: 'New folder' });
  await naming.getByLabel('Folder name').fill('Cardiology');
  await naming.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('button', { name: /Cardiology\s*0 documents/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByText(/^In Cardiology\./)).toBeVisible();

  // Upload into it, with its progress; then the document is listed in the folder.
  await page.locator('input[type=file]').setInputFiles({ name: 'ECG report.pdf', mimeType: 'application/pdf', buffer: onePagePdf({ title: 'ECG', lines: ['Sinus rhythm, 68 per minute'] }) });
  await expect(page.getByText('ECG report.pdf was uploaded.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Cardiology\s*1 document/ })).toBeVisible();
  const item = page.getByRole('listitem').filter({ hasText: 'ECG report.pdf' });
  await expect(item.getByText('In Cardiology')).toBeVisible();

  // Preview in the page.
  await item.getByRole('button', { name: 'ECG report.pdf', exact: true }).click();
  const preview = page.getByRole('dialog', { name: 'ECG report.pdf' });
  await expect(preview.locator('iframe[title="ECG report.pdf"]')).toBeVisible();
  await scan(page);
  await preview.getByRole('button', { name: 'Close' }).click();

  // Move it out of the folder.
  await item.getByRole('button', { name: 'Actions for ECG report.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Move to a folder' }).click();
  const move = page.getByRole('dialog', { name: 'Move "ECG report.pdf"' });
  await move.getByRole('combobox', { name: 'Folder' }).click();
  await page.getByRole('option', { name: 'Not in a folder' }).click();
  await move.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('ECG report.pdf was moved.')).toBeVisible();
  await expect(page.getByRole('button', { name: /Cardiology\s*0 documents/ })).toBeVisible();

  // Attach it to the visit.
  await page.getByRole('button', { name: 'All documents' }).click();
  await item.getByRole('button', { name: 'Actions for ECG report.pdf' }).click();
  await page.getByRole('menuitem', { name: 'Attach to a record' }).click();
  const attach = page.getByRole('dialog', { name: 'Attach "ECG report.pdf" to a record' });
  await attach.getByRole('combobox', { name: 'Kind of record' }).click();
  await page.getByRole('option', { name: 'Medical visits' }).click();
  await attach.getByRole('combobox', { name: 'Record', exact: true }).click();
  await page.getByRole('option', { name: 'Cardiology check' }).click();
  await attach.getByRole('button', { name: 'Attach to a record' }).click();
  await expect(page.getByText('ECG report.pdf was attached to Cardiology check.')).toBeVisible();
  await expect(item.getByRole('link', { name: /Attached to Cardiology check/ })).toBeVisible();
  await scan(page);

  // The record lists it among its attachments.
  await item.getByRole('link', { name: /Attached to Cardiology check/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cardiology check' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Attachments' }).getByText('ECG report.pdf', { exact: true })).toBeVisible();

  // The empty folder can go.
  await page.goto('/healthbook/health-vault');
  await page.getByRole('button', { name: 'Actions for the folder Cardiology' }).click();
  await page.getByRole('menuitem', { name: 'Delete folder' }).click();
  await page.getByRole('dialog', { name: 'Delete this folder?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('button', { name: /Cardiology/ })).toHaveCount(0);
});

test('the demo patient finds a believable record and documents, in Greek at phone width', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'el-GR' });
  const page = await context.newPage();
  await page.goto('/northwind/login');
  await page.locator('input[type=email]').fill('patient@northwind.example');
  await page.locator('input[autocomplete=current-password]').fill(DEMO_PASSWORD);
  await page.locator('form button[type=submit]').click();
  await expect(page).toHaveURL(/\/northwind\/dashboard$/);
  await page.goto('/northwind/health-vault');
  await expect(page.getByText('Knee X-ray.png')).toBeVisible();
  await scan(page);
  await page.goto('/northwind/health-record/biometrics');
  await expect(page.locator('svg').first()).toBeVisible();
  await scan(page);
  await context.close();
});
