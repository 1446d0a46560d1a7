import { useTranslation } from 'react-i18next';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { SUPPORTED_LANGUAGES } from '@healthbook/shared/constants';
import { setLanguage } from '../lib/i18n';

const SHORT: Record<string, string> = { en: 'EN', el: 'ΕΛ' };

/** English / Greek switch; the choice is kept for the next visit. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? 'en';
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={current}
      aria-label={t('language.label')}
      onChange={(_e, value: string | null) => {
        if (value) void setLanguage(value);
      }}
    >
      {SUPPORTED_LANGUAGES.map((lang) => (
        <ToggleButton key={lang} value={lang} aria-label={t(`language.${lang}`)} lang={lang} sx={{ px: 1.5, py: 0.25 }}>
          {SHORT[lang]}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
