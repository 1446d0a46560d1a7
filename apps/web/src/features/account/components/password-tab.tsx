import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { validateConfirmPassword, validateNewPassword, validatePasswordField } from '@healthbook/shared/validation';
import { TextInput } from '../../../components/text-input';
import { ApiError } from '../../../lib/api-client';
import { apiErrorText } from '../../../lib/auth';
import { changePassword } from '../api/change-password';

interface PasswordForm {
  current_password: string;
  password: string;
  confirm: string;
}

const EMPTY: PasswordForm = { current_password: '', password: '', confirm: '' };

/** Change password: the current one, a new one by the spec's rules, and its confirmation. */
export function PasswordTab({ email }: { email: string }) {
  const { t } = useTranslation(['account', 'validation']);
  const [done, setDone] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors, isSubmitting, touchedFields },
  } = useForm<PasswordForm>({ mode: 'onTouched', defaultValues: EMPTY });

  const onSubmit = handleSubmit(async ({ current_password, password }) => {
    setDone(null);
    setFailure(null);
    try {
      const answer = await changePassword({ current_password, password });
      reset(EMPTY);
      setDone(answer?.detail || t('password.changed'));
    } catch (error) {
      const data = error instanceof ApiError && error.status === 400 && error.data && typeof error.data === 'object' ? (error.data as Record<string, unknown>) : null;
      let placed = false;
      for (const field of ['current_password', 'password'] as const) {
        const messages = data?.[field];
        if (Array.isArray(messages)) {
          setError(field, { message: messages.join(' ') });
          placed = true;
        }
      }
      if (!placed) setFailure(apiErrorText(error) ?? t('password.error'));
    }
  });

  const message = (field: keyof PasswordForm) => {
    const m = errors[field]?.message;
    return m ? t(m) : undefined;
  };
  const [password, confirm] = useWatch({ control, name: ['password', 'confirm'] });
  const matches = Boolean(touchedFields.confirm && confirm && confirm === password && !errors.confirm);

  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ maxWidth: 480 }}>
      <Typography variant="h2" sx={{ mb: 2 }}>
        {t('profile.tabs.password')}
      </Typography>
      {/* The account's e-mail, hidden, lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <TextInput
        label={t('password.current')}
        type="password"
        autoComplete="current-password"
        required
        error={message('current_password')}
        {...register('current_password', { validate: validatePasswordField })}
      />
      <TextInput
        label={t('password.new')}
        type="password"
        autoComplete="new-password"
        required
        error={message('password')}
        helperText={t('validation:passwordHint')}
        {...register('password', { validate: validateNewPassword, deps: ['confirm'] })}
      />
      <TextInput
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        required
        error={message('confirm')}
        helperText={matches ? <Box component="span" sx={{ color: 'success.main' }}>{t('validation:passwordsMatch')}</Box> : undefined}
        {...register('confirm', { validate: (value, form) => validateConfirmPassword(value, form.password) })}
      />
      {failure && (
        <Typography role="alert" color="error" sx={{ mb: 2 }}>
          {failure}
        </Typography>
      )}
      <Typography role="status" color="success.main" sx={{ mb: done ? 2 : 0 }}>
        {done ?? ''}
      </Typography>
      <Button type="submit" variant="contained" disabled={isSubmitting}>
        {t('password.submit')}
      </Button>
    </Box>
  );
}
