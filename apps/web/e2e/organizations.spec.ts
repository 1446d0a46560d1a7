// Organisations for super admins (issue 25 §2): a super admin creates an organisation with its
// colour and logo and sees its sign-in page branded; deactivates it and its members see the page
// saying so; axe on the new pages in English and Greek, on a desktop and a phone.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO_PASSWORD, landing, scan, signIn } from './accounts';
import { primaryButtonColor } from './fixtures';
import { png } from '../../server/test/png';

const SUPERADMIN = 'superadmin@healthbook.example';
const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const LOCALES = { en: 'en-US', el: 'el-GR' } as const;

async function superAdminPage(browser: Browser, locale = 'en-US', viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<Page> {
  // Signed in in English (the helper reads the English form), then the chosen language, as a user switching would.
  const context = await browser.newContext({ locale: 'en-US', viewport });
  const page = await context.newPage();
  await signIn(page, SUPERADMIN, DEMO_PASSWORD);
  await expect(page).toHaveURL(landing(SUPERADMIN));
  const language = locale.slice(0, 2);
  if (language !== 'en') {
    await page.evaluate((lang) => localStorage.setItem('language', lang), language);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
  }
  return page;
}

const clientId = `e2e-${Date.now().toString(36)}`;
const orgName = `Riverside ${clientId.slice(4)}`;

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test('a super admin creates a branded organisation, and its sign-in page wears the branding', async ({ browser }) => {
  const page = await superAdminPage(browser);
  await page.goto('/healthbook/admin/organizations');
  await expect(page.getByRole('heading', { level: 1, name: 'Organisations' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Northwind Health' })).toBeVisible();
  await page.getByRole('link', { name: 'New organisation' }).click();

  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(orgName);
  await page.getByRole('textbox', { name: 'Short name', exact: true }).fill('Riverside');
  await page.getByRole('textbox', { name: 'Client id', exact: true }).fill('login');
  await page.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#e91e63');
  await page.getByRole('button', { name: 'Create the organisation' }).click();
  await expect(page.getByText('used by the application’s own addresses', { exact: false })).toBeVisible();
  await expect(page.getByText(/in light mode; WCAG AA needs 4\.5:1/).first()).toBeVisible();

  await page.getByRole('textbox', { name: 'Client id', exact: true }).fill(clientId);
  await page.getByRole('textbox', { name: 'Primary colour', exact: true }).fill('#1b5e20');
  await page.getByRole('button', { name: 'Create the organisation' }).click();
  await expect(page).toHaveURL(/\/healthbook\/admin\/organizations\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(orgName) })).toBeVisible();

  // A logo with its preview; an SVG with script is refused with the reason.
  const logoInput = page.locator('input[type="file"]').first();
  await logoInput.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png(64, 64, { rgb: [27, 94, 32] }) });
  await expect(page.getByRole('img', { name: `Logo of ${orgName}` })).toBeVisible();
  await expect(page.getByRole('img', { name: `Logo of ${orgName}` })).toHaveAttribute('src', new RegExp(`/api/v1/organizations/${clientId}/logo`));
  const faviconInput = page.locator('input[type="file"]').nth(1);
  await faviconInput.setInputFiles({ name: 'evil.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') });
  await expect(page.getByText('This SVG contains script')).toBeVisible();
  await scan(page);

  // Its sign-in page, in a browser of its own, is branded.
  const visitor = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await visitor.goto(`/${clientId}/login`);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(visitor).toHaveTitle(`Sign in | ${orgName}`);
  expect(await primaryButtonColor(visitor, 'Sign In')).toBe('rgb(27, 94, 32)');
  await expect(visitor.locator('img[src*="/logo"]').first()).toHaveAttribute('src', new RegExp(`/api/v1/organizations/${clientId}/logo`));
  await scan(visitor);
  await visitor.context().close();
  await page.context().close();
});

test('a deactivated organisation shows its members the page saying so; reactivation restores its sign-in page', async ({ browser }) => {
  const page = await superAdminPage(browser);
  await page.goto('/healthbook/admin/organizations');
  await page.getByRole('link', { name: orgName }).click();
  await page.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('dialog', { name: `Deactivate ${orgName}?` })).toBeVisible();
  await scan(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('button', { name: 'Reactivate' })).toBeVisible();
  await expect(page.getByText('Deactivated', { exact: true }).first()).toBeVisible();

  for (const [language, locale] of Object.entries(LOCALES)) {
    for (const [name, viewport] of Object.entries(VIEWPORTS)) {
      const member = await (await browser.newContext({ locale, viewport })).newPage();
      await member.goto(`/${clientId}/login`);
      await expect(member).toHaveURL(new RegExp(`/${clientId}/deactivated$`));
      await expect(member.getByRole('heading', { level: 1 })).toHaveText(
        language === 'en' ? `${orgName} is not available at the moment` : `Ο οργανισμός ${orgName} δεν είναι διαθέσιμος προς το παρόν`,
      );
      await scan(member);
      test.info().annotations.push({ type: 'scanned', description: `deactivated ${language} ${name}` });
      await member.context().close();
    }
  }

  await page.getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByRole('button', { name: 'Deactivate' })).toBeVisible();
  const member = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await member.goto(`/${clientId}/login`);
  await expect(member.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await member.context().close();
  await page.context().close();
});

for (const [language, locale] of Object.entries(LOCALES)) {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`the administration pages pass axe (${language}, ${name})`, async ({ browser }) => {
      const page = await superAdminPage(browser, locale, viewport);
      for (const path of ['/healthbook/admin/organizations', '/healthbook/admin/organizations/new', '/healthbook/admin/help-articles', '/healthbook/admin/surveys']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByRole('progressbar')).toHaveCount(0);
        await scan(page);
      }
      await page.goto('/healthbook/admin/organizations');
      await page.getByRole('link', { name: language === 'en' ? 'Northwind Health' : 'Northwind Health' }).click();
      await expect(page.getByRole('heading', { level: 1, name: /Northwind Health/ })).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await scan(page);
      await page.context().close();
    });
  }
}
