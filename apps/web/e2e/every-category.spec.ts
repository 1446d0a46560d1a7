// Every category through the pages — create, edit, delete — at desktop width in English and at phone
// width in Greek. What to fill is read from the categories' declaration (their required fields),
// so a sixteenth category is covered the day it is declared. SHOTS_DIR=<dir> keeps a screenshot
// of each form and each saved record.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { CATEGORIES } from '../../../packages/shared/src/records/categories';
import type { CategoryDefinition, RecordField } from '../../../packages/shared/src/records/fields';
import enRecords from '../../../packages/shared/src/locales/en/records.json' with { type: 'json' };
import elRecords from '../../../packages/shared/src/locales/el/records.json' with { type: 'json' };
import enHealth from '../src/locales/en/healthRecords.json' with { type: 'json' };
import elHealth from '../src/locales/el/healthRecords.json' with { type: 'json' };
import { registeredPatient, scan } from './accounts';
import { openInApp } from './fixtures';

const LANGUAGES = {
  en: { records: enRecords, health: enHealth, locale: 'en-GB', viewport: { width: 1280, height: 900 }, country: ['Ital', 'Italy'] },
  el: { records: elRecords, health: elHealth, locale: 'el-GR', viewport: { width: 390, height: 844 }, country: ['Ιταλ', 'Ιταλία'] },
} as const;

type Texts = (typeof LANGUAGES)[keyof typeof LANGUAGES];

/** A field's label as the form shows it: the category's own name for it, else the shared one. */
function label(texts: Texts, category: CategoryDefinition, field: RecordField): string {
  const own = (texts.records.categoryFields as Record<string, Record<string, string>>)[category.key]?.[field.name];
  return own ?? (texts.records.fields as Record<string, string>)[field.name]!;
}

/** Fills one required field by its kind; answers the text a reader will then see as the title, if it is the title. */
async function fill(page: Page, texts: Texts, category: CategoryDefinition, field: RecordField, text: string): Promise<string | null> {
  const name = label(texts, category, field);
  switch (field.kind) {
    case 'text':
      await page.getByRole('textbox', { name }).first().fill(text);
      return text;
    case 'number':
      await page.getByRole('textbox', { name }).or(page.getByRole('spinbutton', { name })).first().fill('5.4');
      return null;
    case 'measurement':
      await page.getByRole('textbox', { name }).or(page.getByRole('spinbutton', { name })).first().fill('70');
      return null;
    case 'choice': {
      await page.getByRole('combobox', { name }).click();
      const option = page.getByRole('option').first();
      const shown = (await option.textContent())!.trim();
      await option.click();
      await expect(page.getByRole('listbox')).toBeHidden();
      return shown;
    }
    case 'country':
      await page.getByRole('combobox', { name }).fill(texts.country[0]);
      await page.getByRole('option', { name: texts.country[1] }).click();
      return texts.country[1];
    default:
      throw new Error(`no way to fill a required ${field.kind} field yet (${category.key}.${field.name})`);
  }
}

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: path.join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
}

for (const [lang, texts] of Object.entries(LANGUAGES)) {
  test.describe(`every category, ${lang}`, () => {
    test.use({ viewport: texts.viewport, locale: texts.locale });
    test.describe.configure({ timeout: 420_000 });

    test(`created, edited and deleted through the pages (${lang}, ${texts.viewport.width} px)`, async ({ page }) => {
      const user = await registeredPatient(`every-${lang}`);
      await page.goto('/healthbook/login');
      await page.locator('input[type=email]').fill(user.email);
      await page.locator('input[autocomplete=current-password]').fill(user.password);
      await page.locator('form button[type=submit]').click();
      await expect(page).toHaveURL(/\/healthbook\/dashboard$/);

      for (const category of CATEGORIES as readonly CategoryDefinition[]) {
        await test.step(category.key, async () => {
          const categories = texts.records.categories as Record<string, { saved: string; other: string }>;
          await openInApp(page, `/healthbook/health-record/${category.key}/new`);
          await expect(page.locator('form button[type=submit]')).toBeVisible();

          // Required fields, in the order of the form; the title field's text is what the record is called.
          let title = '';
          for (const field of category.fields.filter((f) => f.required)) {
            const shown = await fill(page, texts, category, field, `${category.key} ${lang} one`);
            if (field.name === category.titleField && shown) title = shown;
          }
          await shot(page, `${lang}-${category.key}-form`);
          await page.locator('form button[type=submit]').click();
          await expect(page.getByText(categories[category.key]!.saved)).toBeVisible();
          await expect(page).toHaveURL(new RegExp(`/health-record/${category.key}/[0-9]+$`));
          if (title) await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
          // Axe on each category's record at phone width (the desktop pages are scanned by health-records.spec).
          if (lang === 'el') await scan(page);
          await shot(page, `${lang}-${category.key}-saved`);

          // Edit: the note (every category keeps one), then the saved text of an edit.
          await page.getByRole('link', { name: texts.health.detail.edit }).click();
          const noteField = category.fields.find((f) => f.name === 'note')!;
          await page.getByRole('textbox', { name: label(texts, category, noteField) }).fill(`Edited ${category.key}`);
          await page.locator('form button[type=submit]').click();
          await expect(page.getByText(texts.records.messages.edited)).toBeVisible();
          await expect(page.getByText(`Edited ${category.key}`)).toBeVisible();

          // Delete, confirmed: back on the category's list, which is empty again.
          await page.getByRole('button', { name: texts.health.detail.delete }).click();
          const confirm = page.getByRole('dialog', { name: texts.health.detail.deleteTitle });
          await confirm.getByRole('button', { name: texts.health.detail.deleteConfirm }).click();
          await expect(page).toHaveURL(new RegExp(`/health-record/${category.key}$`));
          await expect(page.getByText(texts.records.messages.deleted)).toBeVisible();
        });
      }
    });
  });
}
