import { describe, expect, it } from 'vitest';
import en from '../../locales/en/shareRecipient.json';
import el from '../../locales/el/shareRecipient.json';

/** Every key of a catalog with its placeholders, "a.b" → ["name"]. */
function entries(catalog: object, prefix = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(catalog)) {
    if (value && typeof value === 'object') Object.assign(out, entries(value as object, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = [...String(value).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
  }
  return out;
}

describe('shareRecipient catalogs', () => {
  it('Greek has every English key, translated', () => {
    const english = entries(en);
    const greek = entries(el);
    expect(Object.keys(greek).sort()).toEqual(Object.keys(english).sort());
    const flat = (c: object, p = ''): Array<[string, string]> =>
      Object.entries(c).flatMap(([k, v]) => (v && typeof v === 'object' ? flat(v as object, `${p}${k}.`) : [[`${p}${k}`, String(v)] as [string, string]]));
    const same = flat(el).filter(([k, v]) => flat(en).find(([ek]) => ek === k)?.[1] === v && /[a-z]{3}/i.test(v.replace(/\{\{\s*\w+\s*\}\}|PDF|QR|e-mail/g, '')));
    expect(same).toEqual([]);
  });

  it('the placeholders each text needs are in both languages (Greek may leave out a name)', () => {
    const english = entries(en);
    for (const [key, names] of Object.entries(entries(el))) for (const name of names) expect(english[key], key).toContain(name);
  });
});
