import { expect, test } from '@playwright/test';
import { expectAccessible } from './fixtures';

test('switching to Greek translates the page and is remembered', async ({ page }) => {
  await page.goto('/healthbook/login');
  await page.getByRole('button', { name: 'Ελληνικά' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Σύνδεση' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'el');
  await expect(page.getByRole('link', { name: 'Πολιτική Απορρήτου' })).toBeVisible();
  await expect(page.getByText('Κατέχετε και διαχειρίζεστε εσείς τα δεδομένα υγείας σας.')).toBeVisible();
  await page.getByRole('button', { name: 'Σύνδεση' }).click();
  await expect(page.getByText('Το e-mail είναι υποχρεωτικό')).toBeVisible();
  await expectAccessible(page);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Σύνδεση' })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
});

test('an unsupported browser language falls back to English', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/healthbook/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await context.close();
});

test('a Greek browser gets Greek', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'el-GR' });
  const page = await context.newPage();
  await page.goto('/northwind/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Σύνδεση' })).toBeVisible();
  await context.close();
});
