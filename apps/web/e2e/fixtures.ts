import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No serious or critical accessibility violation on the page as it is; `wcag22`: WCAG 2.2 AA's rules too (target-size). */
export async function expectAccessible(page: Page, options: { wcag22?: boolean } = {}) {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', ...(options.wcag22 ? ['wcag22aa'] : [])];
  // Violations only: axe skips gathering every passed and inapplicable check, a good part of its time per page.
  // axe.run in the page itself (legacy mode), not runPartial in each frame with finishRun in a new blank
  // page: that page, opened for every scan, cost over half of each scan (1.3 s against 0.5 s here). Its
  // gain, frames of other origins, does not apply: the app's frames (a document's preview) are its own.
  const results = await new AxeBuilder({ page }).setLegacyMode().withTags(tags).options({ resultTypes: ['violations'] }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // Each node with axe's reason (a contrast failure names its colours), so a failure says what to fix.
  const why = (n: (typeof serious)[number]['nodes'][number]) => [...n.any, ...n.all, ...n.none].map((c) => c.message).join(' ');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${why(n)})`).join(', ')}`)).toEqual([]);
}

export async function primaryButtonColor(page: Page, name: RegExp | string) {
  return page.getByRole('button', { name }).evaluate((el) => getComputedStyle(el).backgroundColor);
}

/**
 * A day some days ahead in a time zone (the demo providers': Athens), as YYYY-MM-DD, as the date
 * fields take it typed (MMDDYYYY) and as the pages write it in English ("Tuesday, 1 December 2026").
 */
export function dayAhead(days: number, timeZone = 'Europe/Athens') {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date()).split('-').map(Number);
  const at = new Date(Date.UTC(y!, m! - 1, d! + days));
  return {
    iso: at.toISOString().slice(0, 10),
    typed: `${String(at.getUTCMonth() + 1).padStart(2, '0')}${String(at.getUTCDate()).padStart(2, '0')}${at.getUTCFullYear()}`,
    long: new Intl.DateTimeFormat('en-US', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(at),
  };
}

/**
 * Opens a page of the app as its own links do, without loading it again: the history gets the
 * address and the router draws the page (a whole load, the app's JavaScript started anew, cost
 * about ten times the browser's time for the same page). The first page of a test, or another
 * origin's, is loaded. Resolves once the new page's heading is drawn: the old page's headings are
 * marked before, so a page still showing the old one never passes for the new.
 */
export async function openInApp(page: Page, to: string) {
  const target = new URL(to, page.url() === 'about:blank' ? 'http://invalid' : page.url());
  const current = page.url() === 'about:blank' ? null : new URL(page.url());
  // The same page with another query (a tab) keeps its heading: loaded, as the first page.
  if (!current || current.origin !== target.origin || current.pathname === target.pathname) {
    await page.goto(to);
    return;
  }
  await page.evaluate((href) => {
    for (const heading of document.querySelectorAll('h1')) heading.setAttribute('data-e2e-left', '');
    history.pushState(null, '', href);
    dispatchEvent(new PopStateEvent('popstate'));
  }, target.pathname + target.search);
  await expect(page.locator('h1:not([data-e2e-left])').first()).toBeVisible();
}
