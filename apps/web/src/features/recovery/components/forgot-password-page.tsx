import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { isValidEmail } from '@healthbook/shared/validation';
import { BackLink } from '../../../components/back-link';
import { FormPage } from '../../../components/form-page';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText, SERVER_ERROR } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useRequestPasswordReset } from '../api/request-password-reset';

/** The forgot-password e-mail: its own messages ('Email address is required', 'Invalid email address'). */
function validateResetEmail(value: string): string | true {
  const v = value.trim();
  if (!v) return 'validation:emailAddressRequired';
  return isValidEmail(v) ? true : 'validation:emailAddressInvalid';
}

/** Password Assistance: sends reset instructions to the e-mail entered, once. */
export default function ForgotPasswordPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation(['auth', 'validation']);
  const requestReset = useRequestPasswordReset();
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({ mode: 'onTouched', defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    if (sent) return;
    try {
      await requestReset.mutateAsync({ org_id: org.org, email: email.trim().toLowerCase() });
      setSent(true);
    } catch (error) {
      // The spec: whatever the server says shows under the field.
      const general = applyServerErrors(error, { setError, fields: ['email'], fallback: t('common.genericError') });
      if (general) setError('email', { type: SERVER_ERROR, message: general });
    }
  });

  return (
    <FormPage
      pageTitle={t('forgotPassword.pageTitle')}
      heading={t('forgotPassword.title')}
      top={<BackLink to={paths.login(clientId)} label={t('common.back')} historyBack />}
    >
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('forgotPassword.text')}
      </Typography>
      <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit}>
        {sent && (
          <Alert severity="success" role="status">
            {t('forgotPassword.sent')}
          </Alert>
        )}
        <TextInput
          label={t('forgotPassword.email')}
          type="email"
          autoComplete="email"
          required
          readOnly={sent}
          error={fieldErrorText(errors.email, t)}
          {...register('email', { validate: validateResetEmail })}
        />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={sent || isSubmitting}>
          {t('common.submit')}
        </Button>
      </Stack>
    </FormPage>
  );
}
