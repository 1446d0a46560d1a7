// The assistant's "Ask for help" button never covers the page: at desktop and phone width, the
// PHQ-9 score, a record's Share button, a document's title and the dashboard's card headings stay
// clear of it when the page is scrolled to put them at the bottom of the window (where a
// floating button sat) or in its middle; an open dialog's backdrop is above it. With
// E2E_SHOTS_DIR set, each page is kept as a screenshot there (help-button-<viewport>-<page>.png).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator } from '@playwright/test';
import { DEMO_PASSWORD, api, apiLogin } from './accounts';

test.describe.configure({ timeout: 150_000 });

const MARIA = 'patient@healthbook.example';
const SHOTS_DIR = process.env.E2E_SHOTS_DIR;
const VIEWPORTS = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A PHQ-9 result through the API whose score is 12 of 27 (two digits: the first is the one that was hidden). */
async function phq9Of12(token: string): Promise<string> {
  const survey = await api<{ items: Array<{ id: string; options: Array<{ value: number }> }> }>('/api/v1/surveys/phq-9/', { token });
  expect(survey.status).toBe(200);
  // 4 × 2 + 4 × 1 + 0 (the ninth, on self-harm, answered 0).
  const answers = Object.fromEntries(survey.body.items.map((item, i) => [item.id, i < 4 ? 2 : i < 8 ? 1 : 0]));
  const answer = await api<{ id: number; route: string }>('/api/v1/surveys/phq-9/responses/', { token, body: { attempt_id: crypto.randomUUID(), answers } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return `/healthbook/health-action/result?action=${answer.body.route}&id=${answer.body.id}`;
}

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(viewportName, () => {
    test.use({ viewport, locale: 'en-US' });

    test('the "Ask for help" button covers none of the page, and a dialog covers it', async ({ page }) => {
      const token = await apiLogin(MARIA, DEMO_PASSWORD);
      const result = await phq9Of12(token);
      // One the patient typed: a record a connected source brought (the connected-providers journey) has no Delete.
      const conditions = await api<{ results: Array<{ id: number; provenance: unknown }> }>('/api/v1/hr/condition/', { token });
      const recordId = conditions.body.results.find((r) => r.provenance === null)!.id;

      await page.goto('/healthbook/login');
      await page.locator('input[type=email]').fill(MARIA);
      await page.locator('input[autocomplete=current-password]').fill(DEMO_PASSWORD);
      await page.locator('form button[type=submit]').click();
      await expect(page).toHaveURL(/\/healthbook\/dashboard$/);
      const button = page.getByRole('button', { name: 'Ask for help' });

      /** The element, put at the bottom of the window and in its middle, never meets the button. */
      async function clear(target: Locator, what: string) {
        await expect(target).toBeVisible({ timeout: 30_000 });
        // (Not at the top: what scrolls under the app bar is hidden by the bar itself, as on every page.)
        for (const block of ['end', 'center'] as const) {
          await target.evaluate((el, b) => el.scrollIntoView({ block: b, inline: 'nearest' }), block);
          await expect(button).toBeVisible();
          const [mine, its] = [(await button.boundingBox())!, (await target.boundingBox())!];
          expect.soft(intersects(mine, its), `${what} (scrolled to the ${block}): ${JSON.stringify(its)} under the button ${JSON.stringify(mine)}`).toBe(false);
        }
      }
      async function shot(name: string) {
        if (!SHOTS_DIR) return;
        mkdirSync(SHOTS_DIR, { recursive: true });
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: path.join(SHOTS_DIR, `help-button-${viewportName}-${name}.png`) });
      }

      // The dashboard: every card's heading.
      const headings = page.getByRole('main').locator('h2');
      await expect(headings.first()).toBeVisible();
      await shot('dashboard');
      for (const heading of await headings.all()) if (await heading.isVisible()) await clear(heading, `the card heading "${await heading.textContent()}"`);

      // The PHQ-9 score, "12 of 27".
      await page.goto(result);
      const score = page.getByTestId('survey-score').getByText('12 of 27');
      await shot('phq9-result');
      await clear(score, 'the PHQ-9 score');

      // A document's title.
      await page.goto('/healthbook/health-vault');
      await shot('documents');
      await clear(page.getByText('Chest X-ray.png').first(), 'the document title');

      // A record's Share button; then a dialog, whose backdrop is above the button.
      await page.goto(`/healthbook/health-record/condition/${recordId}`);
      await shot('record');
      await clear(page.getByRole('main').getByRole('link', { name: 'Share', exact: true }), 'the Share button');
      await page.evaluate(() => window.scrollTo(0, 0));
      // Where the button is (while the dialog is open, the page under it is hidden from the accessibility tree).
      const box = (await button.boundingBox())!;
      await page.getByRole('button', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete this record?' });
      await expect(dialog).toBeVisible();
      const onTop = await page.evaluate(({ x, y }) => {
        const el = document.elementFromPoint(x, y);
        // The modal's layers (backdrop, the dialog's container) or the page's own element there.
        return el?.closest('.MuiModal-root') ? 'dialog' : (el?.closest('button')?.textContent ?? el?.tagName ?? 'nothing');
      }, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
      expect(onTop, 'what is on top where the button is, while a dialog is open').toBe('dialog');
      if (SHOTS_DIR) await page.screenshot({ path: path.join(SHOTS_DIR, `help-button-${viewportName}-dialog.png`) });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();

      // Its panel opens from where it is, whole within the window.
      await button.click();
      const panel = page.getByRole('dialog', { name: 'Help assistant' });
      await expect(panel.getByRole('textbox', { name: 'Your question' })).toBeFocused();
      const panelBox = (await panel.boundingBox())!;
      expect(panelBox.y).toBeGreaterThanOrEqual(0);
      expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(viewport.height);
      expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(viewport.width);
      if (SHOTS_DIR) await page.screenshot({ path: path.join(SHOTS_DIR, `help-button-${viewportName}-panel.png`) });
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();
      await expect(button).toBeFocused();
    });
  });
}
