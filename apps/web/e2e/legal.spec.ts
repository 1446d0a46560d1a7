import { expect, test } from '@playwright/test';
import { expectAccessible } from './fixtures';

test('the footer leads to About, Privacy Policy and Terms, each accessible', async ({ page }) => {
  await page.goto('/healthbook/login');
  await page.getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/healthbook\/about$/);
  await expect(page.getByRole('heading', { level: 1, name: 'About HealthBook+' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(/\/healthbook\/privacy$/);
  const privacy = page.locator('article');
  await expect(privacy).toContainText('13');
  await expect(privacy).toContainText('United States');
  await expect(privacy).toContainText('Last revised: 1/17/2025');
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Terms & Conditions' }).click();
  await expect(page).toHaveURL(/\/healthbook\/terms$/);
  const terms = page.locator('article');
  for (const constant of ['18', '$100', '1 year', '45 days', 'Colorado', '1/17/2025', 'emergenc', 'experimental']) {
    await expect(terms).toContainText(constant);
  }
  await expectAccessible(page);
});

test('the terms in Greek carry the same constants', async ({ page }) => {
  await page.goto('/northwind/terms');
  await page.getByRole('button', { name: 'Ελληνικά' }).click();
  const terms = page.locator('article');
  await expect(terms).toContainText('Northwind Health');
  for (const constant of ['18', '100', '45', 'Κολοράντο', '17/1/2025']) {
    await expect(terms).toContainText(constant);
  }
  await expectAccessible(page);
});
