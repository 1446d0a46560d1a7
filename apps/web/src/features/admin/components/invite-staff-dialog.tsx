import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Person } from '@healthbook/shared/contracts/people';
import { STAFF_ROLES, type StaffRole } from '@healthbook/shared/people';
import { validateEmailField } from '@healthbook/shared/validation';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useInviteStaff } from '../api/person-actions';

interface StaffForm {
  first_name: string;
  last_name: string;
  email: string;
  role: StaffRole;
  language: 'en' | 'el';
  speciality: string;
  credentials: string;
  languages: string;
  biography: string;
}

const FIELDS = ['first_name', 'last_name', 'email', 'role', 'language', 'speciality', 'credentials', 'languages', 'biography'] as const;
const required = (message: string) => (value: string) => (value.trim() ? true : message);

/**
 * Invites a staff member: an organisation admin, a provider (with the profile patients see in
 * telehealth) or a peer coach. They receive a single-use link to choose their password.
 */
export function InviteStaffDialog({ org, onClose }: { org: number | undefined; onClose: (invited?: Person) => void }) {
  const { t, i18n } = useTranslation(['people', 'validation']);
  const invite = useInviteStaff();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<StaffForm>({
    mode: 'onTouched',
    defaultValues: { first_name: '', last_name: '', email: '', role: 'provider', language: i18n.resolvedLanguage === 'el' ? 'el' : 'en', speciality: '', credentials: '', languages: '', biography: '' },
  });
  const role = useWatch({ control, name: 'role' });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const person = await invite.mutateAsync({
        ...(org !== undefined ? { org_id: org } : {}),
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        email: values.email.trim(),
        role: values.role,
        language: values.language,
        ...(values.role === 'provider'
          ? {
              speciality: values.speciality,
              credentials: values.credentials,
              languages: values.languages.split(',').map((l) => l.trim()).filter(Boolean),
              biography: values.biography,
            }
          : {}),
      });
      onClose(person);
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: FIELDS, fallback: t('actionFailed') }));
    }
  });

  return (
    <Dialog open onClose={() => onClose()} fullWidth maxWidth="sm" aria-labelledby="invite-staff-title">
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id="invite-staff-title">{t('invite.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Alert severity="info">{t('invite.intro')}</Alert>
            {failure && <Alert severity="error">{failure}</Alert>}
            <Controller
              name="role"
              control={control}
              render={({ field }) => (
                <TextField select label={t('invite.role')} {...field} error={Boolean(errors.role)} helperText={fieldErrorText(errors.role, t)}>
                  {STAFF_ROLES.map((r) => (
                    <MenuItem key={r} value={r}>
                      {t(`roles.${r}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              <TextInput label={t('invite.firstName')} required autoComplete="off" error={fieldErrorText(errors.first_name, t)} {...register('first_name', { validate: required('validation:firstNameRequired') })} />
              <TextInput label={t('invite.lastName')} required autoComplete="off" error={fieldErrorText(errors.last_name, t)} {...register('last_name', { validate: required('validation:lastNameRequired') })} />
            </Stack>
            <TextInput label={t('invite.email')} type="email" required autoComplete="off" error={fieldErrorText(errors.email, t)} {...register('email', { validate: validateEmailField })} />
            <Controller
              name="language"
              control={control}
              render={({ field }) => (
                <TextField select label={t('invite.language')} {...field}>
                  <MenuItem value="en">English</MenuItem>
                  <MenuItem value="el">Ελληνικά</MenuItem>
                </TextField>
              )}
            />
            {role === 'provider' && (
              <>
                <TextInput label={t('invite.speciality')} autoComplete="off" error={fieldErrorText(errors.speciality, t)} {...register('speciality')} />
                <TextInput label={t('invite.credentials')} autoComplete="off" error={fieldErrorText(errors.credentials, t)} {...register('credentials')} />
                <TextInput label={t('invite.languages')} helperText={t('invite.languagesHint')} autoComplete="off" error={fieldErrorText(errors.languages, t)} {...register('languages')} />
                <TextInput label={t('invite.biography')} multiline minRows={3} error={fieldErrorText(errors.biography, t)} {...register('biography')} />
              </>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose()}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('invite.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
