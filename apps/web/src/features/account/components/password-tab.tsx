import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validatePasswordField } from '@healthbook/shared/validation';
import { NewPasswordFields, type NewPasswordValues } from '../../../components/new-password-fields';
import { PasswordInput } from '../../../components/password-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useChangePassword } from '../api/change-password';

interface PasswordForm extends NewPasswordValues {
  current_password: string;
}

const EMPTY: PasswordForm = { current_password: '', password: '', confirmPassword: '' };

/** Change password: the current one (which confirms it is the account holder), a new one by the spec's rules, and its confirmation. */
export function PasswordTab({ email }: { email: string }) {
  const { t } = useTranslation(['account', 'validation']);
  const changePassword = useChangePassword();
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<PasswordForm>({ mode: 'onTouched', defaultValues: EMPTY });
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async ({ current_password, password }) => {
    setDone(null);
    setFailure(null);
    try {
      const answer = await changePassword.mutateAsync({ current_password, password });
      reset(EMPTY);
      setDone(answer?.detail || t('password.changed'));
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: ['current_password', 'password'], fallback: t('password.error') }));
    }
  });

  return (
    <FormProvider {...form}>
      <Stack component="form" noValidate spacing={2} onSubmit={onSubmit} sx={{ maxWidth: 480, alignItems: 'stretch' }}>
        <Typography variant="h2">
          {t('profile.tabs.password')}
        </Typography>
        {/* The account's e-mail, hidden, lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          label={t('password.current')}
          autoComplete="current-password"
          required
          error={fieldErrorText(errors.current_password, t)}
          {...register('current_password', { validate: validatePasswordField })}
        />
        <NewPasswordFields passwordLabel={t('password.new')} confirmLabel={t('password.confirm')} />
        <Box>
          {failure && (
            <Typography role="alert" color="error">
              {failure}
            </Typography>
          )}
          <Typography role="status" color="success.main">
            {done ?? ''}
          </Typography>
        </Box>
        <Button type="submit" variant="contained" disabled={isSubmitting} sx={{ alignSelf: 'flex-start' }}>
          {t('password.submit')}
        </Button>
      </Stack>
    </FormProvider>
  );
}
