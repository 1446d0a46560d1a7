import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useUnsavedChangesGuard } from '../../../components/dialogs/unsaved-changes';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { UpdateUserBody, UserDto } from '@healthbook/shared/contracts/users';
import { formatDobForDisplay } from '@healthbook/shared/validation';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useCompleteWizardStep } from '../api/complete-wizard-step';
import { useUpdateMe } from '../api/update-me';
import { EmailChangeDialog } from './email-change-dialog';

interface PersonalForm {
  first_name: string;
  last_name: string;
  phone_number: string;
  address: string;
  city: string;
  state: string;
  zip: string;
  imperial_units: boolean;
}

const TEXT_FIELDS = ['first_name', 'last_name', 'phone_number', 'address', 'city', 'state', 'zip'] as const;
const MAX_LENGTH: Record<(typeof TEXT_FIELDS)[number], number> = {
  first_name: 100,
  last_name: 100,
  phone_number: 40,
  address: 200,
  city: 100,
  state: 100,
  zip: 20,
};

/** The server's field names onto the form's (it answers zip_code for zip). */
const SERVER_FIELDS = { ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, f])), zip_code: 'zip' } as Record<string, (typeof TEXT_FIELDS)[number]>;

const formOf = (user: UserDto): PersonalForm => ({
  first_name: user.first_name,
  last_name: user.last_name,
  phone_number: user.phone_number ?? '',
  address: user.address ?? '',
  city: user.city ?? '',
  state: user.state ?? '',
  zip: user.zip_code ?? '',
  imperial_units: user.imperial_units,
});

/**
 * Personal info: names, phone, address and units (PUT /api/v1/me/). Birth date and gender are
 * shown, not edited; the e-mail address, the sign-in name, changes through "Change e-mail".
 */
export function PersonalInfoTab({ user }: { user: UserDto }) {
  const { t, i18n } = useTranslation(['account', 'validation']);
  const updateMe = useUpdateMe();
  const completeStep = useCompleteWizardStep();
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [changingEmail, setChangingEmail] = useState(false);
  const [emailNotice, setEmailNotice] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<PersonalForm>({ mode: 'onTouched', defaultValues: formOf(user) });
  // Leaving the page with changes not saved asks first ("Exit without saving?").
  const leaveGuard = useUnsavedChangesGuard(isDirty && !isSubmitting);

  const onSubmit = handleSubmit(async (values) => {
    setSaved(false);
    setFailure(null);
    const optional = (v: string) => (v.trim() === '' ? null : v.trim());
    const body: UpdateUserBody = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      phone_number: optional(values.phone_number),
      address: optional(values.address),
      city: optional(values.city),
      state: optional(values.state),
      zip: optional(values.zip),
      imperial_units: values.imperial_units,
    };
    try {
      const updated = await updateMe.mutateAsync(body);
      reset(formOf(updated));
      setSaved(true);
      if (!updated.wizard_complete) completeStep.mutate('profile');
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: SERVER_FIELDS, fallback: t('profile.saveError') }));
    }
  });

  const label = (field: (typeof TEXT_FIELDS)[number]) => t(`profile.fields.${field}`);
  const text = (field: (typeof TEXT_FIELDS)[number], options: { required?: boolean; autoComplete: string; type?: string; inputMode?: 'tel' | 'text' }) => (
    <TextInput
      label={label(field)}
      required={options.required ?? false}
      autoComplete={options.autoComplete}
      type={options.type ?? 'text'}
      inputProps={{ maxLength: MAX_LENGTH[field], ...(options.inputMode ? { inputMode: options.inputMode } : {}) }}
      error={fieldErrorText(errors[field], t)}
      {...register(field, {
        validate: (value) => {
          if (options.required && !String(value).trim()) return field === 'first_name' ? 'validation:firstNameRequired' : 'validation:lastNameRequired';
          if (field === 'phone_number' && String(value).trim() && !/^\+?[0-9\s().-]{5,40}$/.test(String(value).trim())) return 'account:profile.phoneInvalid';
          return true;
        },
      })}
    />
  );

  const lang = i18n.resolvedLanguage ?? 'en';
  const readOnly: Array<[string, ReactNode]> = [
    [
      t('profile.fields.email'),
      <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1.5, rowGap: 0.5 }}>
        <span>{user.email}</span>
        <Button size="small" variant="outlined" onClick={() => setChangingEmail(true)}>
          {t('emailChange.button')}
        </Button>
      </Box>,
    ],
    [t('profile.fields.dob'), user.dob ? (lang === 'el' ? user.dob.split('-').reverse().join('/') : formatDobForDisplay(user.dob)) : t('profile.notGiven')],
    [t('profile.fields.gender'), user.gender?.value ?? t('profile.notGiven')],
  ];

  return (
    <>
      {leaveGuard}
      <Box component="form" noValidate onSubmit={onSubmit}>
        <Typography variant="h2" sx={{ mb: 2 }}>
          {t('profile.tabs.personal')}
        </Typography>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' }, alignItems: 'baseline', columnGap: 3, rowGap: 0.5, m: 0, mb: 3 }}>
          {readOnly.map(([term, value]) => (
            <Box key={term} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary">
                {term}
              </Typography>
              <Typography component="dd" sx={{ m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        <Typography role="status" color="success.main" sx={emailNotice ? { mt: -1.5, mb: 3 } : undefined}>
          {emailNotice ?? ''}
        </Typography>
        <Grid container columnSpacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>{text('first_name', { required: true, autoComplete: 'given-name' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('last_name', { required: true, autoComplete: 'family-name' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('phone_number', { autoComplete: 'tel', type: 'tel', inputMode: 'tel' })}</Grid>
          <Grid size={12}>{text('address', { autoComplete: 'street-address' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('city', { autoComplete: 'address-level2' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('state', { autoComplete: 'address-level1' })}</Grid>
          <Grid size={{ xs: 12, sm: 6 }}>{text('zip', { autoComplete: 'postal-code' })}</Grid>
        </Grid>
        <Controller
          control={control}
          name="imperial_units"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} slotProps={{ input: { ref: field.ref } }} />}
              label={t('profile.fields.imperial_units')}
            />
          )}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
          {t('profile.unitsHint')}
        </Typography>
        {failure && (
          <Typography role="alert" color="error" sx={{ mb: 2 }}>
            {failure}
          </Typography>
        )}
        <Typography role="status" color="success.main" sx={{ mb: saved ? 2 : 0 }}>
          {saved ? t('profile.saved') : ''}
        </Typography>
        <Button type="submit" variant="contained" disabled={isSubmitting || !isDirty}>
          {t('profile.save')}
        </Button>
      </Box>
      {/* Outside the form: a submit in the dialog must not reach this one (React events cross portals). */}
      <EmailChangeDialog
        open={changingEmail}
        user={user}
        onSent={(message) => {
          setChangingEmail(false);
          setEmailNotice(message);
        }}
        onClose={() => setChangingEmail(false)}
      />
    </>
  );
}
