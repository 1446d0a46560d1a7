import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { SUPPORTED_LANGUAGES } from '@healthbook/shared/constants';
import { setLanguage } from '../lib/i18n';

const SHORT: Record<string, string> = { en: 'EN', el: 'ΕΛ' };

/** English / Greek switch; the choice is kept for the next visit. Plain buttons keep the sign-in bundle small. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = i18n.resolvedLanguage ?? 'en';
  return (
    <Box role="group" aria-label={t('language.label')} sx={{ display: 'flex', border: 1, borderColor: 'divider', borderRadius: 1, overflow: 'hidden' }}>
      {SUPPORTED_LANGUAGES.map((lang) => {
        const active = lang === current;
        return (
          <Button
            key={lang}
            size="small"
            lang={lang}
            aria-label={t(`language.${lang}`)}
            aria-pressed={active}
            onClick={() => void setLanguage(lang)}
            sx={{
              minWidth: 44,
              borderRadius: 0,
              px: 1.5,
              py: 0.25,
              color: active ? 'text.primary' : 'text.secondary',
              bgcolor: active ? 'action.selected' : 'transparent',
              fontWeight: active ? 700 : 500,
            }}
          >
            {SHORT[lang]}
          </Button>
        );
      })}
    </Box>
  );
}
