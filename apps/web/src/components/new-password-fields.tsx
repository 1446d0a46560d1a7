import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import { validateConfirmPassword, validateNewPassword } from '@healthbook/shared/validation';
import { fieldErrorText } from '../lib/form-errors';
import { PasswordInput } from './password-input';

/** The fields this group adds to its form (react-hook-form, through FormProvider). */
export interface NewPasswordValues {
  password: string;
  confirmPassword: string;
}

export interface NewPasswordFieldsProps {
  passwordLabel: string;
  confirmLabel: string;
}

/**
 * A new password and its confirmation, by the spec's rules: the hint under the password,
 * 'Passwords does not meet requirements', 'Passwords do not match', and 'Passwords match' once
 * they do. Used by sign-up, the password reset and the profile's password tab; the form around
 * it (FormProvider) holds `password` and `confirmPassword`.
 */
export function NewPasswordFields({ passwordLabel, confirmLabel }: NewPasswordFieldsProps) {
  const { t } = useTranslation('validation');
  const {
    register,
    control,
    getValues,
    trigger,
    formState: { errors },
  } = useFormContext<NewPasswordValues>();
  const [password, confirmPassword] = useWatch({ control, name: ['password', 'confirmPassword'] });
  const confirmError = fieldErrorText(errors.confirmPassword, t);
  const matches = !confirmError && confirmPassword !== '' && confirmPassword === password;

  return (
    <>
      <PasswordInput
        label={passwordLabel}
        autoComplete="new-password"
        required
        error={fieldErrorText(errors.password, t)}
        helperText={t('validation:passwordHint')}
        {...register('password', {
          validate: validateNewPassword,
          // A confirmation already typed is checked again against the new password.
          onChange: () => getValues('confirmPassword') && void trigger('confirmPassword'),
        })}
      />
      <PasswordInput
        label={confirmLabel}
        autoComplete="new-password"
        required
        error={confirmError}
        helperText={
          matches ? (
            <Box component="span" sx={(theme) => ({ color: theme.palette.mode === 'dark' ? 'success.light' : 'success.dark' })}>
              {t('validation:passwordsMatch')}
            </Box>
          ) : undefined
        }
        {...register('confirmPassword', { validate: (value, values) => validateConfirmPassword(value, values.password) })}
      />
    </>
  );
}
