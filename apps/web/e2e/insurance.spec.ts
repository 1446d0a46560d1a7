// Insurance cards through the pages: the northwind demo patient (insurance active there) sees the
// seeded card with its photo, adds a card with a front photo, sees it, edits it (and sees the
// "Expired" chip), deletes it; in healthbook Insurance is "Coming Soon!" in the menu; the page
// in Greek at phone width. Every page and dialog passes the axe scan. INSURANCE_SHOTS_DIR keeps
// screenshots (desktop and phone, en and el) for reading.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { greyscalePng } from '../../server/src/db/seed/demo-files';
import { DEMO_PASSWORD, scan, signIn } from './accounts';

test.describe.configure({ timeout: 150_000 });

const SHOTS = process.env.INSURANCE_SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const NORTHWIND_PATIENT = 'patient@northwind.example';

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A signed-in page; in Greek the language is switched on the sign-in page, as a user does. */
async function signedIn(browser: Browser, email: string, clientId: string, options: { phone?: boolean; greek?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: options.phone ? PHONE : DESKTOP, locale: 'en-US' });
  const page = await context.newPage();
  if (options.greek) {
    await page.goto(`/${clientId}/login`);
    await page.getByRole('button', { name: 'Ελληνικά' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'el');
    await page.locator('input[type=email]').fill(email);
    await page.locator('input[autocomplete=current-password]').fill(DEMO_PASSWORD);
    await page.locator('form button[type=submit]').click();
  } else {
    await signIn(page, email, DEMO_PASSWORD, clientId);
  }
  await expect(page).toHaveURL(new RegExp(`/${clientId}/dashboard$`));
  return page;
}

const photo = (grey: number) => greyscalePng({ width: 120, height: 76, background: grey, shapes: [{ kind: 'rect', x: 8, y: 8, width: 50, height: 12, grey: 30 }] });

test('the northwind patient adds a card with a front photo, sees it, edits it and deletes it', async ({ browser }) => {
  const page = await signedIn(browser, NORTHWIND_PATIENT, 'northwind');
  const insurer = `Aegean Health ${Date.now().toString(36)}`;

  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Insurance' }).click();
  await expect(page).toHaveURL(/\/northwind\/insurance$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Insurance' })).toBeVisible();
  // The seeded card, with its front photo fetched behind the Authorization header.
  const seeded = page.getByRole('article', { name: 'Northwind Health Mutual' });
  await expect(seeded.getByText('NHM-4482-1907')).toBeVisible();
  await expect(seeded.getByRole('img', { name: 'Front of the Northwind Health Mutual card' })).toBeVisible();
  await scan(page);
  await shot(page, 'insurance-desktop-en');

  // Add a card with a front photo.
  await page.getByRole('button', { name: 'Add a card' }).click();
  const form = page.getByRole('dialog', { name: 'Add an insurance card' });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('This field is required.')).toHaveCount(2);
  await form.getByLabel('Insurer').fill(insurer);
  await form.getByLabel('Plan').fill('Silver');
  await form.getByLabel('Member number').fill('AH-778899');
  await form.getByLabel('Group number').fill('G-12');
  await form.getByLabel('Valid from').fill('2026-01-01');
  await form.getByLabel('Valid until').fill('2027-12-31');
  await form.getByTestId('photo-input-front').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: photo(220) });
  await expect(form.getByText('New photo: front.png')).toBeVisible();
  await scan(page);
  await shot(page, 'insurance-form-desktop-en');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The card was saved.')).toBeVisible();
  await expect(form).toHaveCount(0);

  const card = page.getByRole('article', { name: insurer });
  await expect(card.getByText('AH-778899')).toBeVisible();
  await expect(card.getByText('Silver')).toBeVisible();
  await expect(card.getByRole('img', { name: `Front of the ${insurer} card` })).toBeVisible();
  await expect(card.getByText('No photo')).toBeVisible(); // the back
  await expect(card.getByText('Expired')).toHaveCount(0);

  // The photo, larger.
  await card.getByRole('button', { name: 'Show the front photo larger' }).click();
  const large = page.getByRole('dialog', { name: `Front of the ${insurer} card` });
  await expect(large.getByRole('img')).toBeVisible();
  await scan(page);
  await large.getByRole('button', { name: 'Close' }).click();

  // Edit: another plan, an end date that has passed, a back photo.
  await card.getByRole('button', { name: `Edit the ${insurer} card` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit the insurance card' });
  await expect(edit.getByLabel('Insurer')).toHaveValue(insurer);
  await edit.getByLabel('Plan').fill('Gold');
  await edit.getByLabel('Valid from').fill('2024-01-01');
  await edit.getByLabel('Valid until').fill('2025-06-30');
  await edit.getByTestId('photo-input-back').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: photo(160) });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);
  await expect(card.getByText('Gold')).toBeVisible();
  await expect(card.getByText('Expired')).toBeVisible();
  await expect(card.getByRole('img', { name: `Back of the ${insurer} card` })).toBeVisible();
  await scan(page);

  // Delete, after confirming.
  await card.getByRole('button', { name: `Delete the ${insurer} card` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this card?' });
  await expect(confirm.getByText(`The ${insurer} card and its photos will be deleted.`, { exact: false })).toBeVisible();
  await scan(page);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The card was deleted.')).toBeVisible();
  await expect(page.getByRole('article', { name: insurer })).toHaveCount(0);
  await expect(seeded).toBeVisible();
  await page.context().close();
});

test('healthbook shows Insurance as Coming Soon in the menu, and its page leads nowhere', async ({ browser }) => {
  const page = await signedIn(browser, 'patient@healthbook.example', 'healthbook');
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  const item = nav.getByRole('button', { name: 'Insurance' });
  await expect(item).toHaveAttribute('aria-disabled', 'true');
  await item.hover();
  await expect(page.getByRole('tooltip', { name: 'Coming Soon!' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Insurance' })).toHaveCount(0);
  await page.goto('/healthbook/insurance');
  await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
  await page.context().close();
});

test('the insurance page in Greek at phone width', async ({ browser }) => {
  const page = await signedIn(browser, NORTHWIND_PATIENT, 'northwind', { phone: true, greek: true });
  await page.goto('/northwind/insurance');
  await expect(page.getByRole('heading', { level: 1, name: 'Ασφάλιση' })).toBeVisible();
  const seeded = page.getByRole('article', { name: 'Northwind Health Mutual' });
  await expect(seeded.getByText('Αριθμός μέλους')).toBeVisible();
  await expect(seeded.getByRole('img', { name: 'Μπροστινή όψη της κάρτας Northwind Health Mutual' })).toBeVisible();
  // Nothing wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await scan(page);
  await shot(page, 'insurance-phone-el');

  await page.getByRole('button', { name: 'Προσθήκη κάρτας' }).click();
  const form = page.getByRole('dialog', { name: 'Προσθήκη κάρτας ασφάλισης' });
  await expect(form.getByLabel('Ασφαλιστικός φορέας')).toBeVisible();
  await scan(page);
  await shot(page, 'insurance-form-phone-el');
  await form.getByRole('button', { name: 'Ακύρωση' }).click();
  await expect(form).toHaveCount(0);

  await seeded.getByRole('button', { name: 'Διαγραφή της κάρτας Northwind Health Mutual' }).click();
  const confirm = page.getByRole('dialog', { name: 'Διαγραφή αυτής της κάρτας;' });
  await scan(page);
  await confirm.getByRole('button', { name: 'Ακύρωση' }).click();
  await expect(seeded).toBeVisible();
  await page.context().close();
});
