// What a reader sees wrong on a page beyond axe: text that does not fit its box (a label, a heading,
// a button, a tab, a chip, a field's placeholder cut or spilling out), a page wider than the screen,
// and, on a Greek page, English words left in the interface. One page.evaluate per page.
import { expect, type Page } from '@playwright/test';

/**
 * Latin-script words a Greek page may show: the product's and standards' names, units,
 * abbreviations a Greek reader uses as they are, and the name of the other language in the picker.
 * Names and records people typed are not here: the app marks them translate="no" (HTML's own
 * "do not translate this"), and the check skips those, as it skips parts marked lang="en".
 */
const LATIN_ALLOWED = [
  'HealthBook', 'Healthbook', 'English', 'PDF', 'FHIR', 'HL7', 'QR', 'SMS', 'PIN', 'URL', 'ID', 'CSV', 'JSON', 'ZIP', 'PNG', 'JPG',
  'JPEG', 'DOCX', 'TXT', 'HEIC', 'MB', 'KB', 'GB', 'PHQ', 'GAD', 'WHO', 'BMI', 'SpO', 'mmHg', 'mg', 'kg', 'cm', 'ml', 'mL', 'bpm',
  'mmol', 'dL', 'lb', 'lbs', 'ft', 'in', 'oz', 'kcal', 'IU', 'UTC', 'GMT', 'TOTP', 'OTP', 'Google', 'Authenticator', 'Microsoft',
  'Apple', 'Health', 'iPhone', 'Fitbit', 'Garmin', 'Withings', 'Zoom', 'Jitsi', 'WebRTC', 'Wi', 'Fi', 'e', 'mail', 'Ctrl', 'Enter',
  'Esc', 'Tab', 'Shift', 'Alt', 'OK', 'AM', 'PM', 'am', 'pm', 'HB', 'CareClub', 'Calendar', 'Outlook', 'HIPAA', 'cookies', 'Cookies',
  'GIF', 'WebP', 'SVG', 'AB', 'Authy', 'API', 'IP', 'WCAG', 'AA', 'ISO', 'UUID', 'MD', 'MSc', 'mcg', 'pixel', 'SMART', 'Link', 'Links', 'Bundle',
  // Names of foreign laws and agreements the legal pages cite in their own words.
  'Business', 'Associate', 'Agreement', 'Federal', 'Arbitration', 'Act',
  // The publisher's postal address in the legal pages; the authors and sponsor of the PHQ-9 and GAD-7.
  'Broadway', 'Suite', 'Denver', 'CO', 'USA', 'Robert', 'Spitzer', 'Janet', 'Williams', 'Kurt', 'Kroenke', 'Pfizer', 'Inc',
];

export interface ScreenFlaw {
  kind: 'overflow' | 'ellipsis' | 'placeholder' | 'page-width' | 'english';
  where: string;
  text: string;
}

/**
 * The page's flaws as the browser lays it out now; `language` 'el' adds the check for English words,
 * `names` the words of people's names the journey made up (they appear inside translated sentences).
 */
export async function screenFlaws(page: Page, language: string, names: readonly string[] = []): Promise<ScreenFlaw[]> {
  return page.evaluate(
    ({ language, allowed }) => {
      const flaws: ScreenFlaw[] = [];
      const visible = (el: Element) => {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) return false;
        const style = getComputedStyle(el);
        return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) !== 0;
      };
      /** A short path to name the element in the failure message. */
      const where = (el: Element) => {
        const parts: string[] = [];
        for (let e: Element | null = el; e && parts.length < 3 && e !== document.body; e = e.parentElement) {
          const cls = [...e.classList].find((c) => c.startsWith('Mui') || c.startsWith('fc-')) ?? '';
          parts.unshift(e.tagName.toLowerCase() + (cls ? `.${cls}` : ''));
        }
        return parts.join(' > ');
      };
      const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();

      // The page itself: nothing makes it wider than the screen.
      const width = document.documentElement.scrollWidth;
      if (width > window.innerWidth + 1) flaws.push({ kind: 'page-width', where: 'html', text: `${width} px on ${window.innerWidth} px` });

      // Texts whose whole wording matters: headings, labels, buttons, tabs, chips, a select's value, column heads.
      const WHOLE = [
        'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'label', 'legend', 'button', 'th', '[role=tab]', '[role=button]', '[role=menuitem]',
        '.MuiChip-label', '.MuiSelect-select', '.MuiInputLabel-root', '.MuiFormLabel-root', '.MuiButton-root', '.MuiTab-root',
        '.MuiListItemText-primary', '.MuiToggleButton-root', '.fc-event-title', '.fc-list-event-title', '.fc-col-header-cell-cushion',
        '.fc-toolbar-title',
      ].join(',');
      for (const el of document.querySelectorAll<HTMLElement>(WHOLE)) {
        if (!visible(el) || el.closest('[translate=no]') || !text(el)) continue;
        const style = getComputedStyle(el);
        if (style.display === 'inline') continue;
        // A box that scrolls on purpose (a table's wrapper) is not cut.
        if (style.overflowX === 'auto' || style.overflowX === 'scroll') continue;
        if (el.scrollWidth > el.clientWidth + 1) {
          flaws.push({ kind: style.textOverflow === 'ellipsis' ? 'ellipsis' : 'overflow', where: where(el), text: text(el) });
        }
      }

      // A field's placeholder wider than the room the field gives it.
      const canvas = document.createElement('canvas').getContext('2d')!;
      for (const input of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]')) {
        if (!visible(input) || input.value || !input.placeholder || input.tagName === 'TEXTAREA') continue;
        const style = getComputedStyle(input);
        canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        if (canvas.measureText(input.placeholder).width > room + 1) flaws.push({ kind: 'placeholder', where: where(input), text: input.placeholder });
      }

      // On a Greek page: words in Latin letters outside names and records (translate="no") and the allowed ones.
      if (language === 'el') {
        const ok = new Set(allowed);
        // A part marked as written in another language (lang="en": the language switch's "EN") is meant so.
        const otherLanguage = (el: Element) => {
          const marked = el.closest('[lang]');
          return marked !== null && marked !== document.documentElement && !marked.getAttribute('lang')!.startsWith('el');
        };
        const latin = (s: string) =>
          s
            .replace(/\S+@\S+/g, ' ')
            .replace(/\bhttps?:\/\/\S*/g, ' ')
            .replace(/[\w.-]+\.(?:example|com|org|gr|eu|zip)\b\S*/g, ' ')
            .match(/[A-Za-z]{2,}/g)
            ?.filter((w) => !ok.has(w)) ?? [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (!parent || parent.closest('[translate=no], script, style, noscript, svg') || otherLanguage(parent) || !visible(parent)) continue;
          const words = latin(node.textContent ?? '');
          if (words.length) flaws.push({ kind: 'english', where: where(parent), text: `${words.join(' ')} in ${(node.textContent ?? '').trim().slice(0, 60)}` });
        }
        for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [placeholder], [title], img[alt]')) {
          if (el.closest('[translate=no]') || otherLanguage(el) || !visible(el)) continue;
          for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
            const value = el.getAttribute(attribute);
            const words = value ? latin(value) : [];
            if (words.length) flaws.push({ kind: 'english', where: `${where(el)}[${attribute}]`, text: `${words.join(' ')} in ${value!.slice(0, 60)}` });
          }
        }
      }
      return flaws;
    },
    { language, allowed: [...LATIN_ALLOWED, ...names.flatMap((n) => n.match(/[A-Za-z]+/g) ?? [])] },
  );
}

/** Fails the journey with every flaw of the page listed. */
export async function expectNoScreenFlaws(page: Page, language: string, name: string, names: readonly string[] = []) {
  const flaws = await screenFlaws(page, language, names);
  const unique = [...new Map(flaws.map((f) => [`${f.kind}|${f.text}`, f])).values()];
  // Soft: the walk goes on, and one run lists the flaws of every page.
  expect.soft(unique.map((f) => `${f.kind}: "${f.text}" (${f.where})`), `screen flaws on ${name}`).toEqual([]);
}
