import { describe, expect, it } from 'vitest';
import { languageCode, languageName } from './language-names';

describe('language names', () => {
  it('recognises a language named in English or Greek, or by its code', () => {
    expect(languageCode('Greek')).toBe('el');
    expect(languageCode('ελληνικά')).toBe('el');
    expect(languageCode('Ελληνικα')).toBe('el');
    expect(languageCode(' French ')).toBe('fr');
    expect(languageCode('de')).toBe('de');
    expect(languageCode('Klingon')).toBeNull();
  });

  it("names it in the reader's language, capitalised; an unknown name stays as written", () => {
    expect(languageName('Greek', 'el')).toBe('Ελληνικά');
    expect(languageName('English', 'el')).toBe('Αγγλικά');
    expect(languageName('Γαλλικά', 'en')).toBe('French');
    expect(languageName('Greek', 'en')).toBe('Greek');
    expect(languageName('Klingon', 'el')).toBe('Klingon');
  });
});
