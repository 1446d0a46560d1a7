// The journal: two entries with their moods, the list and the mood chart, search, a tag filter,
// an edit, a delete (confirmed); then the page in Greek at phone width. Axe on every page and dialog.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { registeredPatient, scan, signIn } from './accounts';

/** With E2E_SHOTS_DIR set, a screenshot of the page as scanned (to look at it). */
async function shot(page: Page, name: string) {
  if (process.env.E2E_SHOTS_DIR) await page.screenshot({ path: path.join(process.env.E2E_SHOTS_DIR, `journal-${name}.png`), fullPage: true });
}

test.describe.configure({ timeout: 150_000 });

test('entries with moods, the mood chart, search, edit and delete; Greek at phone width', async ({ page, browser }) => {
  const user = await registeredPatient('journal');
  await signIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);

  // From the menu (My Record).
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Journal' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Journal' })).toBeVisible();
  await expect(page.getByText('No entries yet.', { exact: false })).toBeVisible();
  await scan(page);

  // A first entry: private by default.
  await page.getByRole('button', { name: 'New entry' }).click();
  let dialog = page.getByRole('dialog', { name: 'New journal entry' });
  await expect(dialog.getByRole('switch', { name: 'Visible to my care network' })).not.toBeChecked();
  // The title is required: said before anything is sent.
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Give the entry a title.')).toBeVisible();
  await scan(page);
  await dialog.getByLabel('Title').fill('A walk by the sea');
  await dialog.getByLabel('What would you like to write?').fill('The wind was cold but it helped.');
  await dialog.getByRole('radio', { name: 'Good', exact: true }).check();
  // A comma and Enter each make a tag; Enter does not save the entry.
  await dialog.getByLabel('Tags').fill('walk, sea');
  await dialog.getByLabel('Tags').press('Enter');
  await expect(dialog.getByText('walk', { exact: true })).toBeVisible();
  await expect(dialog.getByText('sea', { exact: true })).toBeVisible();
  await expect(dialog.getByLabel('Tags')).toHaveValue('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('“A walk by the sea” was saved.')).toBeVisible();

  // A second, shared with the care network.
  await page.getByRole('button', { name: 'New entry' }).click();
  dialog = page.getByRole('dialog', { name: 'New journal entry' });
  await dialog.getByLabel('Title').fill('Restless night');
  await dialog.getByLabel('What would you like to write?').fill('Woke up three times.');
  await dialog.getByRole('radio', { name: 'Low', exact: true }).check();
  await dialog.getByLabel('Tags').fill('sleep');
  await dialog.getByRole('switch', { name: 'Visible to my care network' }).check();
  await shot(page, 'en-desktop-dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('“Restless night” was saved.')).toBeVisible();

  // Both listed, with their mood; the chart and its text alternative.
  const entries = page.getByRole('region', { name: 'Entries' });
  await expect(entries.getByText('2 entries')).toBeVisible();
  const walk = entries.getByRole('article', { name: 'A walk by the sea' });
  const night = entries.getByRole('article', { name: 'Restless night' });
  await expect(walk.getByText('Mood: Good')).toBeVisible();
  await expect(walk.getByText('Only you')).toBeVisible();
  await expect(night.getByText('Mood: Low')).toBeVisible();
  await expect(night.getByText('Visible to your care network')).toBeVisible();
  const chart = page.getByRole('region', { name: 'Mood over time' });
  await expect(chart.getByRole('img', { name: /Line chart of your mood over 2 entries/ })).toBeVisible();
  await expect(chart.getByText(/2 moods recorded .* the latest: Low\./)).toBeVisible();
  await scan(page);
  await shot(page, 'en-desktop-list');

  // Search, then a tag filter.
  await page.getByRole('searchbox', { name: 'Search your journal' }).fill('wind');
  await expect(entries.getByText('1 entry')).toBeVisible();
  await expect(walk).toBeVisible();
  await expect(night).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search your journal' }).fill('');
  await expect(entries.getByText('2 entries')).toBeVisible();
  await night.getByRole('button', { name: 'Show entries tagged sleep' }).click();
  await expect(entries.getByText('1 entry')).toBeVisible();
  await expect(walk).toHaveCount(0);
  await expect(entries.getByText('Tag: sleep')).toBeVisible();
  await entries.getByRole('button', { name: 'Show every entry' }).click();
  await expect(entries.getByText('2 entries')).toBeVisible();

  // Edit: a better night after all.
  await night.getByRole('button', { name: 'Edit “Restless night”' }).click();
  dialog = page.getByRole('dialog', { name: 'Edit journal entry' });
  await expect(dialog.getByLabel('Title')).toHaveValue('Restless night');
  await scan(page);
  await dialog.getByLabel('Title').fill('A better night');
  await dialog.getByRole('radio', { name: 'Very good', exact: true }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Your changes to “A better night” were saved.')).toBeVisible();
  const better = entries.getByRole('article', { name: 'A better night' });
  await expect(better.getByText('Mood: Very good')).toBeVisible();
  await expect(chart.getByText(/the latest: Very good\./)).toBeVisible();

  // Delete, confirmed.
  await walk.getByRole('button', { name: 'Delete “A walk by the sea”' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this entry?' });
  await expect(confirm.getByText('“A walk by the sea”', { exact: false })).toBeVisible();
  await scan(page);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('“A walk by the sea” was deleted.')).toBeVisible();
  await expect(entries.getByText('1 entry')).toBeVisible();
  await expect(walk).toHaveCount(0);

  // Greek, at phone width.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  const phone = await context.newPage();
  await phone.goto('/healthbook/login');
  await phone.getByRole('button', { name: 'Ελληνικά' }).click();
  await expect(phone.locator('html')).toHaveAttribute('lang', 'el');
  await phone.locator('input[type=email]').fill(user.email);
  await phone.locator('input[autocomplete=current-password]').fill(user.password);
  await phone.locator('form button[type=submit]').click();
  await expect(phone).toHaveURL(/\/healthbook\/dashboard$/);
  await phone.goto('/healthbook/journal');
  await expect(phone.getByRole('heading', { level: 1, name: 'Προσωπικό ημερολόγιο' })).toBeVisible();
  await expect(phone.getByRole('article', { name: 'A better night' }).getByText('Διάθεση: Πολύ καλή')).toBeVisible();
  await expect(phone.getByRole('region', { name: 'Η πορεία της διάθεσής σας' })).toBeVisible();
  await scan(phone);
  await shot(phone, 'el-phone-list');
  await phone.getByRole('button', { name: 'Νέα καταχώριση' }).click();
  const greekDialog = phone.getByRole('dialog', { name: 'Νέα καταχώριση ημερολογίου' });
  await expect(greekDialog.getByRole('radio', { name: 'Μέτρια', exact: true })).toBeVisible();
  await expect(greekDialog.getByRole('switch', { name: 'Ορατή στο δίκτυο φροντίδας μου' })).not.toBeChecked();
  await scan(phone);
  await shot(phone, 'el-phone-dialog');
  await greekDialog.getByRole('button', { name: 'Ακύρωση' }).click();
  await context.close();
});
