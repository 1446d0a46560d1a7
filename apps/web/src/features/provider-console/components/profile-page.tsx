import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { PROVIDER_BIOGRAPHY_MAX, PROVIDER_TEXT_MAX } from '@healthbook/shared/appointments';
import type { Provider, ProviderProfileBody } from '@healthbook/shared/contracts/appointments';
import { languageName } from '@healthbook/shared/language-names';
import { useUnsavedChangesGuard } from '../../../components/dialogs/unsaved-changes';
import { HubPage } from '../../../components/hub-page';
import { UserAvatar } from '../../../components/user-avatar';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useProfile } from '../api/get-profile';
import { useSaveProfile } from '../api/save-profile';

interface ProfileForm {
  speciality: string;
  speciality_el: string;
  credentials: string;
  languages: string[];
  biography: string;
}

const TEXT_FIELDS = ['speciality', 'speciality_el', 'credentials', 'languages', 'biography'] as const;
const formOf = (p: Provider): ProfileForm => ({ speciality: p.speciality ?? '', speciality_el: p.speciality_el ?? '', credentials: p.credentials ?? '', languages: p.languages, biography: p.biography ?? '' });
/** Languages offered to choose from (any other can be typed); patients read each in their own language. */
const COMMON_LANGUAGES = ['el', 'en', 'fr', 'de', 'it', 'es', 'ar', 'ru', 'uk', 'sq', 'bg', 'ro', 'tr', 'zh'];
const optional = (v: string) => (v.trim() ? v.trim() : null);

/** /provider/profile — what patients read about the provider: speciality, credentials, languages, biography (the photo is the account's picture). */
export default function ProfilePage() {
  const { t } = useTranslation('provider');
  const profile = useProfile();
  return (
    <HubPage pageTitle={t('profile.pageTitle')} intro={t('profile.intro')} maxWidth={760}>
      {profile.isError ? (
        <Alert severity="error" action={<Button onClick={() => void profile.refetch()}>{t('retry')}</Button>}>
          {t('loadFailed')}
        </Alert>
      ) : profile.data ? (
        <ProfileEditor provider={profile.data} />
      ) : (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
    </HubPage>
  );
}

function ProfileEditor({ provider }: { provider: Provider }) {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation(['provider', 'validation']);
  const reader = i18n.resolvedLanguage ?? 'en';
  const languageChoices = COMMON_LANGUAGES.map((code) => languageName(code, reader));
  const save = useSaveProfile();
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileForm>({ mode: 'onTouched', defaultValues: formOf(provider) });
  const leaveGuard = useUnsavedChangesGuard(isDirty && !isSubmitting);

  const onSubmit = handleSubmit(async (values) => {
    setSaved(false);
    setFailure(null);
    const body: ProviderProfileBody = {
      speciality: optional(values.speciality),
      speciality_el: optional(values.speciality_el),
      credentials: optional(values.credentials),
      languages: [...new Set(values.languages.map((l) => l.trim()).filter(Boolean))],
      biography: optional(values.biography),
    };
    try {
      reset(formOf(await save.mutateAsync(body)));
      setSaved(true);
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: TEXT_FIELDS, fallback: t('profile.saveFailed') }));
    }
  });

  const text = (name: 'speciality' | 'speciality_el' | 'credentials', helper: string) => {
    const { ref, ...field } = register(name);
    return (
      <TextField
        label={t(`profile.${name}`)}
        fullWidth
        inputRef={ref}
        {...field}
        error={Boolean(errors[name])}
        helperText={fieldErrorText(errors[name], t) ?? helper}
        slotProps={{ htmlInput: { maxLength: PROVIDER_TEXT_MAX } }}
      />
    );
  };
  const { ref: biographyRef, ...biography } = register('biography');

  return (
    <Paper component="form" noValidate onSubmit={onSubmit} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, display: 'grid', gap: 2.5 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <UserAvatar user={{ first_name: provider.first_name, last_name: provider.last_name, profile_picture: provider.photo_url }} size={64} alt="" />
        <Box>
          <Typography sx={{ fontWeight: 600 }}>{provider.provider_name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('profile.photo')}{' '}
            <Link component={RouterLink} to={paths.profile(clientId)}>
              {t('profile.photoLink')}
            </Link>
          </Typography>
        </Box>
      </Box>
      {/* Both wordings when the provider gives both: each patient reads the one in their language. */}
      {text('speciality', t('profile.specialityHelp'))}
      {text('speciality_el', t('profile.speciality_elHelp'))}
      {text('credentials', t('profile.credentialsHelp'))}
      <Controller
        control={control}
        name="languages"
        render={({ field }) => (
          <Autocomplete
            multiple
            freeSolo
            options={languageChoices}
            value={field.value}
            onChange={(_e, value) => field.onChange(value.map((v) => v.trim()).filter(Boolean))}
            onBlur={field.onBlur}
            renderValue={(value, getItemProps) => value.map((option, index) => <Chip size="small" label={languageName(option, reader)} {...getItemProps({ index })} key={option} />)}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('profile.languages')}
                name={field.name}
                inputRef={field.ref}
                error={Boolean(errors.languages)}
                helperText={fieldErrorText(errors.languages as FieldError | undefined, t) ?? t('profile.languagesHelp')}
              />
            )}
          />
        )}
      />
      <TextField
        label={t('profile.biography')}
        fullWidth
        multiline
        minRows={5}
        inputRef={biographyRef}
        {...biography}
        error={Boolean(errors.biography)}
        helperText={fieldErrorText(errors.biography, t) ?? t('profile.biographyHelp', { max: PROVIDER_BIOGRAPHY_MAX })}
        slotProps={{ htmlInput: { maxLength: PROVIDER_BIOGRAPHY_MAX } }}
      />
      {failure && <Alert severity="error">{failure}</Alert>}
      {saved && <Alert severity="success">{t('profile.saved')}</Alert>}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('profile.save')}
        </Button>
      </Box>
      {leaveGuard}
    </Paper>
  );
}
