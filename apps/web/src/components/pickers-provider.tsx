import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import 'dayjs/locale/el';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { elGR } from '@mui/x-date-pickers/locales';

const GREEK = elGR.components.MuiLocalizationProvider.defaultProps.localeText;

/** MUI's date pickers in the reader's language: day and month names, and the pickers' own labels. */
export function PickersProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const greek = i18n.resolvedLanguage === 'el';
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={greek ? 'el' : 'en'} {...(greek ? { localeText: GREEK } : {})}>
      {children}
    </LocalizationProvider>
  );
}
