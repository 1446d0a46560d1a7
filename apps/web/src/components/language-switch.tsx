import { useTranslation } from 'react-i18next';
import { SUPPORTED_LANGUAGES } from '@healthbook/shared/constants';
import { setLanguage } from '../lib/i18n';

const SHORT: Record<string, string> = { en: 'EN', el: 'ΕΛ' };

/** English / Greek switch; the choice is kept for the next visit. Plain buttons (plain/plain.css): it is on the sign-in page. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? 'en';
  return (
    <div role="group" aria-label={t('language.label')} className="hb-lang">
      {SUPPORTED_LANGUAGES.map((lang) => (
        <button
          key={lang}
          type="button"
          className="hb-button"
          lang={lang}
          aria-label={t(`language.${lang}`)}
          aria-pressed={lang === current}
          onClick={() => void setLanguage(lang)}
        >
          {SHORT[lang]}
        </button>
      ))}
    </div>
  );
}
