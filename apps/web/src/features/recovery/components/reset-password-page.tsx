import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validateConfirmPassword, validateNewPassword } from '@healthbook/shared/validation';
import { FormPage } from '../../../components/form-page';
import { PasswordInput } from '../../../components/password-input';
import { readServerErrors, type ServerErrors } from '../../../components/server-errors';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { session } from '../../../lib/session';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';

interface ResetForm {
  password: string;
  confirmPassword: string;
}

const NO_ERRORS: ServerErrors<'password'> = { fields: {}, general: null };

/** The link of the reset e-mail: choose a new password. */
export default function ResetPasswordPage() {
  const { clientId } = useOrganizationContext();
  const { uid, token } = useParams();
  const { t } = useTranslation('auth');
  if (session.get()) return <Navigate to={paths.dashboard(clientId)} replace />;
  if (!uid || !token) {
    return (
      <FormPage pageTitle={t('resetPassword.pageTitle')} heading={t('resetPassword.title')}>
        <Alert severity="error" sx={{ my: 2 }}>
          {t('resetPassword.invalidLink')}
        </Alert>
        <Link component={RouterLink} to={paths.forgotPassword(clientId)}>
          {t('resetPassword.requestNew')}
        </Link>
      </FormPage>
    );
  }
  return <ResetPasswordForm uid={uid} token={token} />;
}

function ResetPasswordForm({ uid, token }: { uid: string; token: string }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation(['auth', 'validation']);
  const confirmReset = useConfirmPasswordReset();
  const [done, setDone] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState(NO_ERRORS);
  // A refusal of the link itself (expired, used): offer a new one.
  const [linkRefused, setLinkRefused] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    getValues,
    trigger,
    formState: { errors, isSubmitting },
  } = useForm<ResetForm>({ mode: 'onTouched', defaultValues: { password: '', confirmPassword: '' } });
  const [password, confirmPassword] = useWatch({ control, name: ['password', 'confirmPassword'] });

  const onSubmit = handleSubmit(async (values) => {
    setServerErrors(NO_ERRORS);
    setLinkRefused(false);
    try {
      const answer = await confirmReset.mutateAsync({ uid, token, password: values.password });
      setDone(answer?.detail ?? t('resetPassword.success'));
    } catch (error) {
      const found = readServerErrors(error, ['password'], t('common.genericError'));
      setServerErrors(found);
      setLinkRefused(error instanceof ApiError && error.status >= 400 && error.status < 500 && !found.fields.password);
    }
  });

  if (done) {
    return (
      <FormPage pageTitle={t('resetPassword.pageTitle')} heading={t('resetPassword.doneTitle')}>
        <Alert severity="success" role="status" sx={{ my: 2 }}>
          {done}
        </Alert>
        <Button component={RouterLink} to={paths.login(clientId)} variant="contained" size="large" fullWidth>
          {t('common.signIn')}
        </Button>
      </FormPage>
    );
  }

  const passwordError = (errors.password?.message ? t(errors.password.message) : undefined) ?? serverErrors.fields.password;
  const confirmError = errors.confirmPassword?.message ? t(errors.confirmPassword.message) : undefined;
  const passwordsMatch = !confirmError && confirmPassword !== '' && confirmPassword === password;

  return (
    <FormPage pageTitle={t('resetPassword.pageTitle')} heading={t('resetPassword.title')}>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('resetPassword.text')}
      </Typography>
      <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
        {serverErrors.general && (
          <Alert severity="error">
            {serverErrors.general}
            {linkRefused && (
              <>
                {' '}
                <Link component={RouterLink} to={paths.forgotPassword(clientId)}>
                  {t('resetPassword.requestNew')}
                </Link>
              </>
            )}
          </Alert>
        )}
        <PasswordInput
          label={t('resetPassword.password')}
          autoComplete="new-password"
          required
          error={passwordError}
          helperText={t('validation:passwordHint')}
          {...register('password', {
            validate: validateNewPassword,
            onChange: () => {
              setServerErrors((current) => ({ ...current, fields: {} }));
              if (getValues('confirmPassword')) void trigger('confirmPassword');
            },
          })}
        />
        <PasswordInput
          label={t('resetPassword.confirmPassword')}
          autoComplete="new-password"
          required
          error={confirmError}
          helperText={
            passwordsMatch ? (
              <Box component="span" sx={{ color: 'success.dark' }}>
                {t('validation:passwordsMatch')}
              </Box>
            ) : undefined
          }
          {...register('confirmPassword', { validate: (value, values) => validateConfirmPassword(value, values.password) })}
        />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
          {t('resetPassword.submit')}
        </Button>
      </Stack>
    </FormPage>
  );
}
