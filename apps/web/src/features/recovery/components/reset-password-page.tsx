import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FormPage } from '../../../components/form-page';
import { NewPasswordFields, type NewPasswordValues } from '../../../components/new-password-fields';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { session } from '../../../lib/session';
import { useConfirmPasswordReset } from '../api/confirm-password-reset';

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
  const [failure, setFailure] = useState<string | null>(null);
  // A refusal of the link itself (expired, used): offer a new one.
  const [linkRefused, setLinkRefused] = useState(false);
  const form = useForm<NewPasswordValues>({ mode: 'onTouched', defaultValues: { password: '', confirmPassword: '' } });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    setLinkRefused(false);
    try {
      const answer = await confirmReset.mutateAsync({ uid, token, password: values.password });
      setDone(answer?.detail ?? t('resetPassword.success'));
    } catch (error) {
      const general = applyServerErrors(error, { setError, fields: ['password'], fallback: t('common.genericError') });
      setFailure(general);
      setLinkRefused(general !== null && error instanceof ApiError && error.status >= 400 && error.status < 500);
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

  return (
    <FormPage pageTitle={t('resetPassword.pageTitle')} heading={t('resetPassword.title')}>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('resetPassword.text')}
      </Typography>
      <FormProvider {...form}>
        <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
          {failure && (
            <Alert severity="error">
              {failure}
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
          <NewPasswordFields passwordLabel={t('resetPassword.password')} confirmLabel={t('resetPassword.confirmPassword')} />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
            {t('resetPassword.submit')}
          </Button>
        </Stack>
      </FormProvider>
    </FormPage>
  );
}
