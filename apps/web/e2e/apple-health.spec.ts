// An Apple Health export through the page: a realistic export.zip chosen in the Apple Health
// part of the import, its upload and reading followed, then what it holds: its clinical records
// reviewed in the FHIR import's preview and imported, its measurements added as biometrics and
// seen in the list. In Greek at phone width too. The ready and done states are checked for text cut
// or spilling at 1280 and 390 wide (and kept as screenshots there with E2E_SHOTS_DIR set).
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { writeAppleHealthExport } from '../../server/test/apple-health-samples';
import { registeredPatient, scan, signIn } from './accounts';
import { expectNoScreenFlaws } from './screen-flaws';

test.describe.configure({ timeout: 180_000 });
// The days of the readings are counted in the browser's zone (the account has none).
test.use({ timezoneId: 'Europe/Athens' });

const DAYS = 120;
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;
/** Names of formats and products the page's other parts cite in Greek as they are. */
const CITED = ['C-CDA', 'XML', 'MyChart', 'Blue Button', 'shlink'];

/**
 * The page as it is, at 1280 and 390 wide: no text cut or spilling, no page wider than the screen
 * (and, with E2E_SHOTS_DIR set, a screenshot of each); the page is left at `width`.
 */
async function look(page: Page, name: string, language: 'en' | 'el', width: number) {
  for (const w of [1280, 390]) {
    await page.setViewportSize({ width: w, height: 900 });
    // The shell follows the new width a frame or two later (its media queries): given a moment, a real overflow stays.
    await page.waitForFunction(() => document.documentElement.scrollWidth <= window.innerWidth + 1, undefined, { timeout: 3000 }).catch(() => undefined);
    await expectNoScreenFlaws(page, language, `${name} at ${w}`, CITED);
    if (!SHOTS_DIR) continue;
    // From the top: a page scrolled down would show the sticky header over the middle of the shot.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS_DIR, `apple-health-${name}-${language}-${w}.png`), fullPage: true });
  }
  await page.setViewportSize({ width, height: 900 });
}

/** A patient of their own on the import page, and an export.zip of DAYS days (step counts make it big enough to watch it read). */
async function start(page: Page, prefix: string, language: 'en' | 'el') {
  const file = test.info().outputPath('export.zip');
  await writeAppleHealthExport(file, { days: DAYS, stepsPerDay: 600, dstu2: true });
  const user = await registeredPatient(prefix);
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  if (language === 'el') await page.evaluate(() => localStorage.setItem('language', 'el'));
  await page.goto('/healthbook/health-record/fhir');
  return file;
}

test('a patient imports an Apple Health export: its clinical records after the preview, then its measurements', async ({ page }) => {
  const file = await start(page, 'apple', 'en');
  const section = page.getByRole('region', { name: 'Apple Health' });
  await expect(section.getByRole('radio', { name: 'One reading a day (recommended)' })).toBeChecked();
  await section.locator('input[type=file]').setInputFiles(file);

  // Uploaded, then read: one bar with its words, then what the export holds.
  await expect(section.getByRole('progressbar', { name: /^(Uploading export\.zip…|Reading your export…)$/ })).toBeVisible();
  await expect(section.getByText('6 clinical records found. 1 could not be read.')).toBeVisible({ timeout: 60_000 });
  await expect(section.getByRole('progressbar')).toBeHidden();
  const measures = section.getByRole('list', { name: 'Measurements' });
  await expect(measures.getByRole('listitem')).toHaveCount(7);
  await expect(measures.getByRole('checkbox', { name: /^Oxygen saturation/ })).toBeChecked();
  await expect(measures.getByText(`${DAYS} readings · 1 January 2023 to 30 April 2023`).first()).toBeVisible();
  await expect(section.getByText('Details for support (in English)')).toBeVisible();
  await scan(page);
  await look(page, 'ready', 'en', 1280);

  // The clinical records go through the FHIR import's own preview and accept.
  await section.getByRole('button', { name: 'Review 6 clinical records' }).click();
  const preview = page.getByRole('region', { name: 'What export.zip holds' });
  await expect(preview).toBeVisible();
  await expect(preview.getByRole('checkbox', { name: 'Import Penicillin' })).toBeChecked();
  await preview.getByRole('button', { name: /^Import \d+ records$/ }).click();
  await expect(page.getByText(/^\d+ records imported\./)).toBeVisible();

  // The measurements, all but the temperature.
  await measures.getByRole('checkbox', { name: /^Temperature/ }).uncheck();
  await section.getByRole('button', { name: `Add ${DAYS * 6} measurements` }).click();
  await expect(section.getByText(`Added ${DAYS * 6} measurements.`)).toBeVisible({ timeout: 60_000 });
  await look(page, 'done', 'en', 1280);
  await section.getByRole('link', { name: 'Your measurements' }).click();
  await expect(page).toHaveURL(/\/healthbook\/health-record\/biometrics$/);
  await expect(page.getByText('124/81 mmHg').first()).toBeVisible();
  await page.goto('/healthbook/health-record/condition');
  await expect(page.getByRole('link', { name: 'Hypertension' })).toBeVisible();
});

test('in Greek, at phone width: the export read, its measurements added; a file that is not a zip refused', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const file = await start(page, 'apple-el', 'el');
  const section = page.getByRole('region', { name: 'Apple Health' });
  await section.locator('input[type=file]').setInputFiles({ name: 'export.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  await expect(section.getByText('Το export.zip δεν είναι αρχείο zip. Επιλέξτε το export.zip που μοιράζεται η εφαρμογή Υγεία.')).toBeVisible();

  // Through the page's own file chooser: a zip is told by its first bytes.
  await page.getByLabel('Επιλογή αρχείου', { exact: true }).setInputFiles(file);
  await expect(section.getByText('Βρέθηκαν 6 κλινικές εγγραφές. 1 δεν ήταν δυνατό να διαβαστεί.')).toBeVisible({ timeout: 60_000 });
  await expect(section.getByRole('checkbox', { name: /^Κορεσμός οξυγόνου/ })).toBeChecked();
  await scan(page);
  await look(page, 'ready', 'el', 390);
  await section.getByRole('button', { name: `Προσθήκη ${DAYS * 7} μετρήσεων` }).click();
  await expect(section.getByText(`Προστέθηκαν ${DAYS * 7} μετρήσεις.`)).toBeVisible({ timeout: 60_000 });
  await scan(page);
  await look(page, 'done', 'el', 390);
});
