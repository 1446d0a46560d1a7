import { expect, test } from '@playwright/test';
import { expectAccessible, primaryButtonColor } from './fixtures';

test('the root lands on the healthbook sign-in page with its branding', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/healthbook\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'HealthBook+ logo' })).toBeVisible();
  await expect(page).toHaveTitle('Sign in | HealthBook+');
  await expect(page.locator('link[rel="icon"]').last()).toHaveAttribute('href', /\/api\/v1\/organizations\/healthbook\/favicon/);
  expect(await primaryButtonColor(page, 'Sign In')).toBe('rgb(4, 118, 217)');
  await expect(page.getByText('© 2023 HealthBook+. All rights reserved.')).toBeVisible();
  await expectAccessible(page);
});

test('/login goes to the default organisation', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveURL(/\/healthbook\/login$/);
});

test('northwind shows its own logo, name, favicon and colour', async ({ page }) => {
  await page.goto('/northwind/login');
  await expect(page.getByRole('img', { name: 'Northwind Health logo' })).toBeVisible();
  await expect(page.getByText('Welcome to Northwind Health.', { exact: false })).toBeVisible();
  await expect(page).toHaveTitle('Sign in | Northwind Health');
  await expect(page.locator('link[rel="icon"]').last()).toHaveAttribute('href', /\/api\/v1\/organizations\/northwind\/favicon/);
  expect(await primaryButtonColor(page, 'Sign In')).toBe('rgb(0, 105, 92)');
  await expectAccessible(page);
});

test('the client id is lower-cased', async ({ page }) => {
  await page.goto('/NorthWind/login');
  await expect(page).toHaveURL(/\/northwind\/login$/);
  await expect(page.getByRole('img', { name: 'Northwind Health logo' })).toBeVisible();
});

test('the sign-in form checks its fields with the spec messages', async ({ page }) => {
  await page.goto('/healthbook/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('E-mail is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('E-mail must be valid')).toBeVisible();
  await page.getByLabel('Email').fill('patient@healthbook.example');
  await page.getByLabel('Password', { exact: false }).first().fill('Wrong#Password1');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('Password', { exact: false }).first()).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The email or password is incorrect' })).toBeVisible();
  await expect(page).toHaveURL(/\/healthbook\/login$/);
});
