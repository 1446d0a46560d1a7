import { DEFAULT_LANGUAGE, type Language } from './constants';
import enErrors from './locales/en/errors.json';
import elErrors from './locales/el/errors.json';
import enValidation from './locales/en/validation.json';
import elValidation from './locales/el/validation.json';
import enOptions from './locales/en/options.json';
import elOptions from './locales/el/options.json';
import enEmails from './locales/en/emails.json';
import elEmails from './locales/el/emails.json';
import enWizard from './locales/en/wizard.json';
import elWizard from './locales/el/wizard.json';
import enFeatures from './locales/en/features.json';
import elFeatures from './locales/el/features.json';
import enRecords from './locales/en/records.json';
import elRecords from './locales/el/records.json';
import enChat from './locales/en/chat.json';
import elChat from './locales/el/chat.json';
import enHelpPages from './locales/en/helpPages.json';
import elHelpPages from './locales/el/helpPages.json';
import enAudit from './locales/en/audit.json';
import elAudit from './locales/el/audit.json';

/** Catalogs used by both sides: server error messages and shared validation messages. */
export const sharedCatalogs = {
  en: { errors: enErrors, validation: enValidation, options: enOptions, emails: enEmails, wizard: enWizard, features: enFeatures, records: enRecords, chat: enChat, helpPages: enHelpPages, audit: enAudit },
  el: { errors: elErrors, validation: elValidation, options: elOptions, emails: elEmails, wizard: elWizard, features: elFeatures, records: elRecords, chat: elChat, helpPages: elHelpPages, audit: elAudit },
} as const;

export type SharedNamespace = keyof (typeof sharedCatalogs)['en'];

/** A dotted key ("gender.male") inside a namespace. */
function lookup(catalog: object, ns: string, name: string): string | undefined {
  let node: unknown = (catalog as Record<string, unknown>)[ns];
  for (const part of name.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/**
 * Minimal translator for "namespace:key" message keys with {{var}} interpolation.
 * A string that is not a known key is returned as it is (already a message).
 */
export function translate(lang: Language, key: string, vars: Record<string, string | number> = {}): string {
  const [ns, name] = key.includes(':') ? (key.split(':', 2) as [string, string]) : ['errors', key];
  const template = lookup(sharedCatalogs[lang] ?? sharedCatalogs[DEFAULT_LANGUAGE], ns, name) ?? lookup(sharedCatalogs[DEFAULT_LANGUAGE], ns, name);
  if (template === undefined) return key;
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, v: string) => (v in vars ? String(vars[v]) : `{{${v}}}`));
}
