import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type Language } from '@healthbook/shared/constants';
import { isSupportedLanguage } from '@healthbook/shared/validation';
import enCommon from '../locales/en/common.json';
import { setApiLanguage } from './api-client';

const STORAGE_KEY = 'language';

/** App catalogs (src/locales) and shared ones (validation, errors), loaded when first needed. */
const appCatalogs = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/*/*.json', '!../locales/en/common.json']);
const sharedCatalogs = import.meta.glob<{ default: Record<string, unknown> }>('../../../../packages/shared/src/locales/*/*.json');

const lazyBackend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language: string, namespace: string, callback: ReadCallback) {
    const load =
      appCatalogs[`../locales/${language}/${namespace}.json`] ??
      sharedCatalogs[`../../../../packages/shared/src/locales/${language}/${namespace}.json`];
    if (!load) return callback(new Error(`no catalog ${language}/${namespace}`), false);
    load().then(
      (mod) => callback(null, mod.default),
      (err: Error) => callback(err, false),
    );
  },
};

/** The chosen language if supported, else the browser's if supported, else en. */
export function initialLanguage(): Language {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(STORAGE_KEY) : null;
  if (isSupportedLanguage(stored)) return stored;
  const browser = typeof navigator !== 'undefined' ? navigator.language?.split('-')[0] : undefined;
  return isSupportedLanguage(browser) ? browser : DEFAULT_LANGUAGE;
}

export async function setLanguage(lang: string): Promise<void> {
  const next = isSupportedLanguage(lang) ? lang : DEFAULT_LANGUAGE;
  localStorage.setItem(STORAGE_KEY, next);
  await i18n.changeLanguage(next);
}

i18n.on('languageChanged', (lng) => {
  setApiLanguage(lng);
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});

export const i18nReady = i18n
  .use(lazyBackend)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...SUPPORTED_LANGUAGES],
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    ns: ['common'],
    defaultNS: 'common',
    // English common strings ship in the first bundle; the rest load on demand.
    resources: { en: { common: enCommon } },
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

export { i18n };
