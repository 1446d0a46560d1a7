import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import { GENDER_KEYS } from '@healthbook/shared/constants';
import { parseDob, validateDobNotFuture, validateEmailField } from '@healthbook/shared/validation';
import { FormPage } from '../../../components/form-page';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { session } from '../../../lib/session';
import { useCreateInvitation } from '../api/create-invitation';
import { useUserOptions } from '../api/get-user-options';

interface InviteForm {
  first_name: string;
  last_name: string;
  dob: string;
  gender: string;
  email: string;
}

const EMPTY: InviteForm = { first_name: '', last_name: '', dob: '', gender: '', email: '' };
const FIELDS = ['first_name', 'last_name', 'dob', 'gender', 'email'] as const;

const required = (message: string) => (value: string) => (value.trim() ? true : message);

/** An organisation admin invites a patient: the invitation e-mail carries the access code for sign-up. */
export default function InvitePatientPage() {
  const { clientId } = useOrganizationContext();
  const location = useLocation();
  if (!session.get()) return <Navigate to={paths.loginFrom(clientId, `${location.pathname}${location.search}`)} replace />;
  return <InviteForm />;
}

function InviteForm() {
  const { t, i18n } = useTranslation(['auth', 'validation']);
  const language = i18n.resolvedLanguage ?? 'en';
  const options = useUserOptions(language);
  const createInvitation = useCreateInvitation();
  const genderLabelId = useId();
  const genderHelpId = useId();
  const [sent, setSent] = useState<{ email: string; code: string | undefined } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<InviteForm>({ mode: 'onTouched', defaultValues: EMPTY });

  useEffect(() => {
    // The spec: a failed options call is only logged; the form falls back to the known keys.
    if (options.error) console.error('Could not load the user options', options.error);
  }, [options.error]);
  const genders = options.data?.gender ?? GENDER_KEYS.map((key) => ({ key, value: t(`invite.genders.${key}`) }));

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const email = values.email.trim();
    try {
      const invitation = await createInvitation.mutateAsync({
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        dob: parseDob(values.dob) ?? values.dob.trim(),
        gender: values.gender as (typeof GENDER_KEYS)[number],
        email,
      });
      setSent({ email: invitation.email || email, code: invitation.signup_code });
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: FIELDS, fallback: t('common.genericError') }));
    }
  });

  const [again, setAgain] = useState(false);
  const inviteAnother = () => {
    reset(EMPTY);
    setSent(null);
    setFailure(null);
    setAgain(true);
  };
  useEffect(() => {
    // After "Invite another patient" the form comes back: start in its first field.
    if (again && sent === null) setFocus('first_name');
  }, [again, sent, setFocus]);

  const genderError = fieldErrorText(errors.gender, t);

  return (
    <FormPage pageTitle={t('invite.pageTitle')} heading={t('invite.title')} maxWidth={560}>
      {sent ? (
        <Stack spacing={3} sx={{ mt: 2 }}>
          <Alert severity="success" role="status">
            {sent.code ? t('invite.sentWithCode', { email: sent.email, code: sent.code }) : t('invite.sent', { email: sent.email })}
          </Alert>
          <Button variant="contained" size="large" onClick={inviteAnother}>
            {t('invite.another')}
          </Button>
        </Stack>
      ) : (
        <Stack component="form" noValidate spacing={2} onSubmit={onSubmit} sx={{ mt: 2 }}>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
            <TextInput
              label={t('invite.firstName')}
              autoComplete="off"
              required
              error={fieldErrorText(errors.first_name, t)}
              {...register('first_name', { validate: required('validation:firstNameRequired') })}
            />
            <TextInput
              label={t('invite.lastName')}
              autoComplete="off"
              required
              error={fieldErrorText(errors.last_name, t)}
              {...register('last_name', { validate: required('validation:lastNameRequired') })}
            />
          </Box>
          <TextInput
            label={t('invite.dob')}
            placeholder={t('common.dobPlaceholder')}
            helperText={t('common.dobHint')}
            inputProps={{ inputMode: 'numeric' }}
            autoComplete="off"
            required
            error={fieldErrorText(errors.dob, t)}
            {...register('dob', { validate: (value) => validateDobNotFuture(value) })}
          />
          <Controller
            name="gender"
            control={control}
            rules={{ validate: required('validation:genderInvalid') }}
            render={({ field }) => (
              <FormControl component="fieldset" required error={Boolean(genderError)}>
                <FormLabel component="legend" id={genderLabelId}>
                  {t('invite.gender')}
                </FormLabel>
                <RadioGroup
                  row
                  aria-labelledby={genderLabelId}
                  aria-describedby={genderError ? genderHelpId : undefined}
                  name={field.name}
                  value={field.value}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                >
                  {genders.map((option, index) => (
                    <FormControlLabel
                      key={option.key}
                      value={option.key}
                      control={<Radio slotProps={{ input: { ref: index === 0 ? field.ref : undefined } }} />}
                      label={option.value}
                    />
                  ))}
                </RadioGroup>
                <FormHelperText id={genderHelpId} role={genderError ? 'alert' : undefined}>
                  {genderError ?? ' '}
                </FormHelperText>
              </FormControl>
            )}
          />
          <TextInput
            label={t('invite.email')}
            type="email"
            autoComplete="off"
            required
            error={fieldErrorText(errors.email, t)}
            {...register('email', { validate: validateEmailField })}
          />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
            {t('invite.submit')}
          </Button>
        </Stack>
      )}
    </FormPage>
  );
}
