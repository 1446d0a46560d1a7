import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SUPPORTED_LANGUAGES } from '@healthbook/shared/constants';
import type { UserDto, UserSettings } from '@healthbook/shared/contracts/users';
import { isSupportedLanguage } from '@healthbook/shared/validation';
import { setUser } from '../../../lib/auth';
import { applyServerErrors } from '../../../lib/form-errors';
import { setLanguage } from '../../../lib/i18n';
import { timeZones, userTimeZone } from '../../../lib/zoned-time';
import { useUpdateMe } from '../api/update-me';

/** Language, time zone and dark mode: applied at once, kept in the user's settings (PUT /api/v1/me/). */
export function PreferencesTab({ user }: { user: UserDto }) {
  const { t, i18n } = useTranslation(['account', 'common']);
  const updateMe = useUpdateMe();
  const [failure, setFailure] = useState<string | null>(null);
  const current = i18n.resolvedLanguage ?? 'en';
  const zones = useMemo(() => timeZones(), []);
  const zone = user.settings.timeZone ?? userTimeZone();

  const save = async (settings: UserSettings) => {
    const previous = user;
    setFailure(null);
    // Applied at once; put back when the server refuses it.
    setUser({ ...previous, settings });
    try {
      await updateMe.mutateAsync({ settings });
    } catch (error) {
      setUser(previous);
      setFailure(applyServerErrors(error, { fallback: t('preferences.error') }));
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <Typography variant="h2">{t('profile.tabs.preferences')}</Typography>
      <FormControl component="fieldset">
        <FormLabel component="legend">{t('preferences.language')}</FormLabel>
        <RadioGroup
          value={current}
          onChange={(_event, value) => {
            if (!isSupportedLanguage(value)) return;
            void setLanguage(value);
            void save({ ...user.settings, language: value });
          }}
        >
          {SUPPORTED_LANGUAGES.map((lang) => (
            <FormControlLabel key={lang} value={lang} control={<Radio />} label={<span lang={lang}>{t(`common:language.${lang}`)}</span>} />
          ))}
        </RadioGroup>
      </FormControl>
      <Autocomplete
        options={zones}
        value={zone}
        disableClearable
        onChange={(_event, value) => void save({ ...user.settings, timeZone: value })}
        sx={{ maxWidth: 420 }}
        renderInput={(params) => <TextField {...params} label={t('preferences.timeZone')} helperText={t('preferences.timeZoneHelp')} />}
      />
      <FormControl component="fieldset">
        <FormLabel component="legend">{t('preferences.appearance')}</FormLabel>
        <FormControlLabel
          control={<Switch checked={user.settings.dark === true} onChange={(e) => void save({ ...user.settings, dark: e.target.checked })} />}
          label={t('preferences.dark')}
        />
      </FormControl>
      {failure && (
        <Typography role="alert" color="error">
          {failure}
        </Typography>
      )}
    </Box>
  );
}
