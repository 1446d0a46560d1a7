// FHIR R4 export and import through the pages: the record downloaded as a FHIR file, a
// Synthea-style patient's bundle previewed, one entry unticked, the rest imported and seen in the
// lists; the same file again shows its duplicates; the downloaded file round-trips; in Greek too.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { api, apiLogin, registeredPatient, scan, signIn } from './accounts';

test.describe.configure({ timeout: 150_000 });

const SYNTHEA = path.resolve(import.meta.dirname, '../../server/test/fixtures/fhir/synthea-patient.json');

async function signedIn(page: Page, prefix: string) {
  const user = await registeredPatient(prefix);
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  // A record of their own, typed in, to find in the export.
  const token = await apiLogin(user.email, user.password);
  expect((await api('/api/v1/hr/condition/', { token, body: { name: 'Asthma', start_date: '2019-05-01', start_date_part: 'month' } })).status).toBe(201);
  return user;
}

/** Downloads the record as a FHIR file through the page; answers its name and content. */
async function download(page: Page, button: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), bundle: JSON.parse(await readFile((await file.path())!, 'utf8')) as { resourceType: string; type: string; entry: Array<{ resource: Record<string, unknown> }> } };
}

test('a patient exports FHIR, imports a Synthea-style bundle after the preview, and sees the records', async ({ page }) => {
  const user = await signedIn(page, 'fhir');
  await page.goto('/healthbook/health-record');
  await page.getByRole('link', { name: 'Export and import (FHIR)' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-record\/fhir$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Export and import (FHIR)' })).toBeVisible();
  await scan(page);

  // Export: a FHIR Bundle named after the patient, their details first, then the record.
  const exported = await download(page, 'Download FHIR file');
  expect(exported.name).toBe(`${user.first_name}-${user.last_name}-fhir.json`.toLowerCase());
  expect(exported.bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
  expect(exported.bundle.entry.map((e) => e.resource.resourceType)).toEqual(['Patient', 'Condition']);
  expect(exported.bundle.entry[1]!.resource).toMatchObject({ code: { text: 'Asthma' }, onsetDateTime: '2019-05' });
  await expect(page.getByText('Your FHIR file was downloaded.')).toBeVisible();

  // Import: the preview lists every entry, the new ones ticked, the others not tickable.
  await page.getByLabel('Choose a file', { exact: true }).setInputFiles(SYNTHEA);
  const preview = page.getByRole('region', { name: 'What synthea-patient.json holds' });
  await expect(preview).toBeVisible();
  await expect(preview.getByText('17 new records. 9 entries skipped.')).toBeVisible();
  const claim = preview.getByRole('row').filter({ hasText: 'Claim is not kept in the health record.' });
  await expect(claim.getByRole('checkbox')).toBeDisabled();
  await expect(claim.getByText('Skipped')).toBeVisible();
  await expect(preview.getByRole('checkbox', { name: 'Import Viral sinusitis (disorder)' }).first()).toBeChecked();
  await scan(page);

  // The patient unticks the procedure and imports the rest.
  await preview.getByRole('checkbox', { name: 'Import Medication reconciliation (procedure)' }).uncheck();
  await preview.getByRole('button', { name: 'Import 16 records' }).click();
  await expect(page.getByText('16 records imported. 9 entries skipped.')).toBeVisible();
  await expect(preview).toBeHidden();

  // The records are in the lists.
  await page.getByRole('link', { name: 'Your health records' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Medical History' }).click();
  await expect(page.getByRole('link', { name: 'Viral sinusitis (disorder)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Essential hypertension (disorder)' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Asthma' })).toBeVisible();
  await page.goto('/healthbook/health-record/biometrics');
  await expect(page.getByText('128/82 mmHg')).toBeVisible();
  await page.goto('/healthbook/health-record/procedure');
  await expect(page.getByText('You have not added any procedures yet.')).toBeVisible();

  // The same file again: what was imported shows as already there; only the procedure is new.
  await page.goto('/healthbook/health-record/fhir');
  await page.getByLabel('Choose a file', { exact: true }).setInputFiles(SYNTHEA);
  await expect(preview.getByText('1 new record. 16 already in your record. 9 entries skipped.')).toBeVisible();
  const again = preview.getByRole('row').filter({ hasText: 'Viral sinusitis (disorder)' }).first();
  await expect(again.getByText('Already in your record')).toBeVisible();
  await expect(again.getByText('Imported before.')).toBeVisible();
  await expect(again.getByRole('checkbox')).toBeDisabled();
  await scan(page);
  await preview.getByRole('button', { name: 'Import 1 record' }).click();
  await expect(page.getByText('1 record imported. 16 already in your record. 9 entries skipped.')).toBeVisible();

  // The downloaded file round-trips: everything in it is already here.
  await page.getByLabel('Choose a file', { exact: true }).setInputFiles({ name: 'my-record.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported.bundle)) });
  const mine = page.getByRole('region', { name: 'What my-record.json holds' });
  await expect(mine.getByText('0 new records. 1 already in your record. 1 entry skipped.')).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Import 0 records' })).toBeDisabled();

  // A file that is not FHIR is refused with why.
  await page.getByLabel('Choose a file', { exact: true }).setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"resourceType": "Patient"}') });
  await expect(page.getByText('notes.json could not be imported. This is not a FHIR Bundle (its resourceType is "Patient").')).toBeVisible();
});

test('in Greek, at phone width: the record round-trips through its FHIR file', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signedIn(page, 'fhir-el');
  await page.evaluate(() => localStorage.setItem('language', 'el'));
  await page.goto('/healthbook/health-record/fhir');
  await expect(page.getByRole('heading', { level: 1, name: 'Εξαγωγή και εισαγωγή (FHIR)' })).toBeVisible();
  await page.getByRole('switch', { name: 'Να περιληφθούν και οι εγγραφές μόνο για τα μάτια μου' }).or(page.getByRole('checkbox', { name: 'Να περιληφθούν και οι εγγραφές μόνο για τα μάτια μου' })).check();
  const exported = await download(page, 'Λήψη αρχείου FHIR');
  await expect(page.getByText('Το αρχείο FHIR σας κατέβηκε.')).toBeVisible();
  expect(exported.bundle.entry).toHaveLength(2);

  await page.getByLabel('Επιλογή αρχείου', { exact: true }).setInputFiles({ name: 'fakelos.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported.bundle)) });
  const preview = page.getByRole('region', { name: 'Τι περιέχει το fakelos.json' });
  await expect(preview.getByText('0 νέες εγγραφές. 1 υπάρχει ήδη στον φάκελό σας. 1 καταχώριση παραλείπεται.')).toBeVisible();
  await expect(preview.getByText('Υπάρχει ήδη στον ιατρικό σας φάκελο.')).toBeVisible();
  await expect(preview.getByText('Τα προσωπικά σας στοιχεία δεν εισάγονται.')).toBeVisible();
  await scan(page);

  await page.getByLabel('Επιλογή αρχείου', { exact: true }).setInputFiles(SYNTHEA);
  const synthea = page.getByRole('region', { name: 'Τι περιέχει το synthea-patient.json' });
  await expect(synthea.getByText('17 νέες εγγραφές. 9 καταχωρίσεις παραλείπονται.')).toBeVisible();
  await synthea.getByRole('button', { name: 'Εισαγωγή 17 εγγραφών' }).click();
  await expect(page.getByText('Εισήχθησαν 17 εγγραφές. 9 καταχωρίσεις παραλείπονται.')).toBeVisible();
  await scan(page);
  // What came in goes out again with the next export.
  const after = await download(page, 'Λήψη αρχείου FHIR');
  expect(after.bundle.entry).toHaveLength(2 + 17);
});
