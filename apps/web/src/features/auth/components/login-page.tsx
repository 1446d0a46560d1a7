import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { LoginForm } from '@healthbook/shared/contracts/auth';
import { validateEmailField, validatePasswordField } from '@healthbook/shared/validation';
import { useOrganizationContext } from '../../../lib/organization-context';
import { EyeIcon, EyeOffIcon } from '../../../components/icons';
import { TextInput } from '../../../components/text-input';

/** The sign-in form. Signing in itself arrives with the account issue; until then the form says so. */
export default function LoginPage() {
  const { org } = useOrganizationContext();
  const { t } = useTranslation(['common', 'validation']);
  const [showPassword, setShowPassword] = useState(false);
  const [notice, setNotice] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginForm>({ mode: 'onTouched' });

  const onSubmit = handleSubmit(() => {
    setNotice(true);
  });

  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: { xs: 4, md: 8 } }}>
      <title>{`${t('login.pageTitle')} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 5 }, borderRadius: 3 }}>
        <Typography variant="h1" gutterBottom>
          {t('login.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('login.subtitle', { orgName: org.org_name })}
        </Typography>
        <Stack component="form" noValidate spacing={2.5} onSubmit={onSubmit}>
          {notice && (
            <Typography role="status" sx={{ p: 1.5, borderRadius: 1, bgcolor: 'action.hover', borderLeft: 4, borderColor: 'primary.main' }}>
              {t('login.notAvailable')}
            </Typography>
          )}
          <TextInput
            label={t('login.email')}
            type="email"
            autoComplete="email"
            required
            error={errors.email?.message ? t(errors.email.message) : undefined}
            {...register('email', { validate: validateEmailField })}
          />
          <TextInput
            label={t('login.password')}
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            required
            error={errors.password?.message ? t(errors.password.message) : undefined}
            endAdornment={
              <InputAdornment position="end">
                <IconButton
                  onClick={() => setShowPassword((v) => !v)}
                  edge="end"
                  aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                >
                  {showPassword ? <EyeOffIcon /> : <EyeIcon />}
                </IconButton>
              </InputAdornment>
            }
            {...register('password', { validate: validatePasswordField })}
          />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
            {t('login.submit')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
