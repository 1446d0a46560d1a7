import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** No serious or critical accessibility violation on the page as it is; `wcag22`: WCAG 2.2 AA's rules too (target-size). */
export async function expectAccessible(page: Page, options: { wcag22?: boolean } = {}) {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', ...(options.wcag22 ? ['wcag22aa'] : [])];
  // Violations only: axe skips gathering every passed and inapplicable check, a good part of its time per page.
  const results = await new AxeBuilder({ page }).withTags(tags).options({ resultTypes: ['violations'] }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // Each node with axe's reason (a contrast failure names its colours), so a failure says what to fix.
  const why = (n: (typeof serious)[number]['nodes'][number]) => [...n.any, ...n.all, ...n.none].map((c) => c.message).join(' ');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${why(n)})`).join(', ')}`)).toEqual([]);
}

export async function primaryButtonColor(page: Page, name: RegExp | string) {
  return page.getByRole('button', { name }).evaluate((el) => getComputedStyle(el).backgroundColor);
}
