import { describe, expect, it } from 'vitest';
import en from '../../locales/en/recordTransfer.json';
import el from '../../locales/el/recordTransfer.json';

/** Every text of a catalog by its key path, "a.b" → text. */
function texts(catalog: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(catalog)) {
    if (value && typeof value === 'object') Object.assign(out, texts(value as object, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = String(value);
  }
  return out;
}
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();

describe('recordTransfer catalogs', () => {
  it('Greek has every English key, with the same placeholders, translated', () => {
    const english = texts(en);
    const greek = texts(el);
    expect(Object.keys(greek).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(greek)) {
      expect(placeholders(text), key).toEqual(placeholders(english[key]!));
      // Names of formats and standards stay as they are; every sentence is translated.
      if (/[a-z]{3}/i.test(english[key]!.replace(/\{\{\s*\w+\s*\}\}|SMART Health Links?|FHIR|C-CDA|PDF/g, ''))) expect(text, key).not.toBe(english[key]);
    }
  });
});
