import { describe, expect, it } from 'vitest';
import { catalogTexts, placeholders } from '../../test/catalogs';
import en from '../../locales/en/recordTransfer.json';
import el from '../../locales/el/recordTransfer.json';


describe('recordTransfer catalogs', () => {
  it('Greek has every English key, with the same placeholders, translated', () => {
    const english = catalogTexts(en);
    const greek = catalogTexts(el);
    expect(Object.keys(greek).sort()).toEqual(Object.keys(english).sort());
    for (const [key, text] of Object.entries(greek)) {
      expect(placeholders(text), key).toEqual(placeholders(english[key]!));
      // Names of formats and standards stay as they are; every sentence is translated.
      if (/[a-z]{3}/i.test(english[key]!.replace(/\{\{\s*\w+\s*\}\}|SMART Health Links?|FHIR|C-CDA|PDF|Apple Health|export\.zip/g, ''))) expect(text, key).not.toBe(english[key]);
    }
  });
});
