import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Search from '@mui/icons-material/Search';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { AVAILABILITY_HORIZON_DAYS } from '@healthbook/shared/appointments';
import { PickersProvider } from '../../../components/pickers-provider';
import { addDays, dayjs, todayIn, userTimeZone } from '../../../lib/zoned-time';
import { useSpecialities } from '../api/get-specialities';

export interface ProviderSearch {
  /** '' for any. */
  speciality: string;
  /** YYYY-MM-DD, or '' for any day. */
  date: string;
}

/** The search for providers: a speciality (or any) and a day (or any), within the days slots are published for. */
export function ProviderSearchForm({ initial, onSearch }: { initial: ProviderSearch; onSearch: (search: ProviderSearch) => void }) {
  const { t } = useTranslation('telehealth');
  const specialities = useSpecialities();
  const [speciality, setSpeciality] = useState(initial.speciality);
  const [date, setDate] = useState(initial.date);
  const today = todayIn(userTimeZone());
  const options = [...new Set([...(specialities.data ?? []), ...(speciality ? [speciality] : [])])].sort((a, b) => a.localeCompare(b));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch({ speciality, date: date === 'invalid' ? '' : date });
  };

  return (
    <Stack component="form" role="search" onSubmit={submit} direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'flex-start' } }}>
      <TextField
        select
        label={t('search.speciality')}
        value={speciality}
        onChange={(e) => setSpeciality(e.target.value)}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        sx={{ flex: 1, minWidth: 220 }}
      >
        <MenuItem value="">{t('search.anySpeciality')}</MenuItem>
        {options.map((s) => (
          <MenuItem key={s} value={s}>
            {s}
          </MenuItem>
        ))}
      </TextField>
      <PickersProvider>
        <DatePicker
          label={t('search.date')}
          value={date && date !== 'invalid' ? dayjs(date) : null}
          onChange={(next) => setDate(next === null ? '' : next.isValid() ? next.format('YYYY-MM-DD') : 'invalid')}
          minDate={dayjs(today)}
          maxDate={dayjs(addDays(today, AVAILABILITY_HORIZON_DAYS))}
          disablePast
          slotProps={{
            textField: { sx: { flex: 1, minWidth: 220 }, helperText: t('search.dateHelp') },
            field: { clearable: true },
          }}
        />
      </PickersProvider>
      <Button type="submit" variant="contained" size="large" startIcon={<Search />} sx={{ minHeight: 56, px: 4 }}>
        {t('search.submit')}
      </Button>
    </Stack>
  );
}
