import { afterEach, describe, expect, it } from 'vitest';
import type { Language } from './constants';
import { sharedCatalogs, translate } from './i18n';

describe('translate', () => {
  it('translates namespace:key in each language', () => {
    expect(translate('en', 'errors:notFound')).toBe('Not found.');
    expect(translate('el', 'errors:notFound')).toBe('Δεν βρέθηκε.');
    expect(translate('en', 'validation:required')).toBe('This field is required.');
    expect(translate('el', 'validation:required')).toBe('Αυτό το πεδίο είναι υποχρεωτικό.');
  });

  it('reads a key without a namespace from errors', () => {
    expect(translate('en', 'notFound')).toBe('Not found.');
    expect(translate('el', 'notFound')).toBe('Δεν βρέθηκε.');
  });

  it('interpolates {{variables}}, with or without spaces inside the braces', () => {
    expect(translate('en', 'errors:bodyTooLarge', { limit: '1 MB' })).toBe('The request body is too large. The limit is 1 MB.');
    expect(translate('el', 'validation:tooLong', { max: 64 })).toBe('Αυτό το πεδίο πρέπει να έχει το πολύ 64 χαρακτήρες.');
    expect(translate('en', 'errors:methodNotAllowed', { method: 'DELETE' })).toBe('Method "DELETE" not allowed.');
    expect(translate('en', 'errors:throttled', { seconds: 0 })).toBe('Request was throttled. Expected available in 0 seconds.');
  });

  it('leaves a placeholder whose variable is missing as it is', () => {
    expect(translate('en', 'errors:bodyTooLarge')).toBe('The request body is too large. The limit is {{limit}}.');
  });

  it('does not interpret replacement patterns in values', () => {
    expect(translate('en', 'errors:unsupportedMediaType', { type: '$& $1 text/x' })).toBe('Unsupported media type "$& $1 text/x" in request.');
  });

  it('returns a string that is not a known key unchanged (it is already a message)', () => {
    expect(translate('en', 'Something went wrong.')).toBe('Something went wrong.');
    expect(translate('el', 'errors:noSuchKey')).toBe('errors:noSuchKey');
    expect(translate('el', 'nosuchns:notFound')).toBe('nosuchns:notFound');
    expect(translate('en', 'Error: disk full')).toBe('Error: disk full');
  });

  it('falls back to English for an unsupported language', () => {
    expect(translate('fr' as Language, 'errors:notFound')).toBe('Not found.');
  });

  describe('a key missing in Greek', () => {
    const en = sharedCatalogs.en.errors as Record<string, string>;
    afterEach(() => {
      delete en.onlyInEnglish;
    });

    it('falls back to the English text, interpolated', () => {
      en.onlyInEnglish = 'Only in English: {{what}}.';
      expect(translate('el', 'errors:onlyInEnglish', { what: 'this' })).toBe('Only in English: this.');
    });
  });
});

describe('catalogs', () => {
  const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

  it.each(Object.keys(sharedCatalogs.en) as Array<keyof typeof sharedCatalogs.en>)('%s: Greek has every English key, with the same placeholders', (ns) => {
    const flatten = (node: object, prefix = ''): Record<string, string> =>
      Object.fromEntries(
        Object.entries(node).flatMap(([k, v]) =>
          typeof v === 'object' && v !== null ? Object.entries(flatten(v as object, `${prefix}${k}.`)) : [[`${prefix}${k}`, String(v)]],
        ),
      );
    const en = flatten(sharedCatalogs.en[ns]);
    const el = flatten(sharedCatalogs.el[ns]);
    expect(Object.keys(el).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en)) {
      expect({ key, vars: placeholders(el[key]!) }).toEqual({ key, vars: placeholders(en[key]!) });
    }
  });
});
