import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/el';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { DATE_PICKER_MIN } from '@healthbook/shared/records/medical-date';

export interface DateFieldProps {
  label: string;
  /** YYYY-MM-DD, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  required?: boolean;
  /** The latest day that may be chosen (YYYY-MM-DD); default none. */
  max?: string;
  name?: string;
  disabled?: boolean;
}

/**
 * An exact date (§2: "A date picker elsewhere has minimum date 1910-01-01 and opens on the
 * year view"), typed or picked, in the reader's language. Answers YYYY-MM-DD, or '' when
 * cleared; a date typed half-way answers 'invalid' so that the form's rule says so.
 */
export function DateField({ label, value, onChange, error, required, max, name, disabled = false }: DateFieldProps) {
  const { i18n } = useTranslation();
  const parsed = value ? dayjs(value, 'YYYY-MM-DD') : null;
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={i18n.resolvedLanguage === 'el' ? 'el' : 'en'}>
      <DatePicker
        label={label}
        value={parsed}
        disabled={disabled}
        openTo="year"
        views={['year', 'month', 'day']}
        minDate={dayjs(DATE_PICKER_MIN)}
        {...(max ? { maxDate: dayjs(max) } : {})}
        onChange={(next: Dayjs | null) => onChange(next === null ? '' : next.isValid() ? next.format('YYYY-MM-DD') : 'invalid')}
        slotProps={{ textField: { fullWidth: true, required, name, error: Boolean(error), helperText: error } }}
      />
    </LocalizationProvider>
  );
}
