/** Every text of a locale catalog by its key path, "a.b" → text (the catalogs' tests compare languages with it). */
export function catalogTexts(catalog: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(catalog)) {
    if (value && typeof value === 'object') Object.assign(out, catalogTexts(value as object, `${prefix}${key}.`));
    else out[`${prefix}${key}`] = String(value);
  }
  return out;
}

/** The {{placeholders}} of a text, sorted. */
export const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!).sort();
