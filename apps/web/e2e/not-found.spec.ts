import { expect, test } from '@playwright/test';
import { expectAccessible } from './fixtures';

test('an unknown organisation shows the 404 page with the default branding', async ({ page }) => {
  await page.goto('/no-such-clinic/login');
  await expect(page).toHaveURL(/\/no-such-clinic\/404$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'HealthBook+ logo' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL(/\/healthbook\/login$/);
});

test('an unknown path goes to the 404 page of its first segment', async ({ page }) => {
  await page.goto('/northwind/no/such/page');
  await expect(page).toHaveURL(/\/northwind\/404$/);
  await expect(page.getByRole('img', { name: 'Northwind Health logo' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Go to sign in' }).click();
  await expect(page).toHaveURL(/\/northwind\/login$/);
});

test('when a page cannot load and the server is unreachable, the offline message shows', async ({ page }) => {
  await page.route('**/assets/login-page-*.js', (route) => route.abort());
  await page.route('**/api/ping', (route) => route.abort());
  await page.goto('/healthbook/login');
  await expect(
    page.getByText("The page timed out while loading. Are you sure you're still connected to the Internet?"),
  ).toBeVisible();
  // Connectivity is back: "Try again" pings, and the page reloads and loads.
  await page.unroute('**/assets/login-page-*.js');
  await page.unroute('**/api/ping');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
});
