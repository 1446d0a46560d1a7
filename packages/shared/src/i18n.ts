import { DEFAULT_LANGUAGE, type Language } from './constants';
import enErrors from './locales/en/errors.json';
import elErrors from './locales/el/errors.json';
import enValidation from './locales/en/validation.json';
import elValidation from './locales/el/validation.json';

/** Catalogs used by both sides: server error messages and shared validation messages. */
export const sharedCatalogs = {
  en: { errors: enErrors, validation: enValidation },
  el: { errors: elErrors, validation: elValidation },
} as const satisfies Record<Language, Record<string, Record<string, string>>>;

export type SharedNamespace = keyof (typeof sharedCatalogs)['en'];

/**
 * Minimal translator for "namespace:key" message keys with {{var}} interpolation.
 * A string that is not a known key is returned as it is (already a message).
 */
export function translate(lang: Language, key: string, vars: Record<string, string | number> = {}): string {
  const [ns, name] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['errors', key];
  const catalog = (sharedCatalogs[lang] ?? sharedCatalogs[DEFAULT_LANGUAGE]) as Record<string, Record<string, string>>;
  const fallback = sharedCatalogs[DEFAULT_LANGUAGE] as Record<string, Record<string, string>>;
  const template = catalog[ns]?.[name] ?? fallback[ns]?.[name];
  if (template === undefined) return key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, v: string) => (v in vars ? String(vars[v]) : `{{${v}}}`));
}
