import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { validateEmailField, validatePasswordField } from '@healthbook/shared/validation';
import { ApiError } from '../../../lib/api-client';
import type * as AuthModuleNs from '../../../lib/auth';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { EyeIcon, EyeOffIcon } from '../../../components/icons';
import { TextInput } from '../../../components/text-input';

type AuthModule = typeof AuthModuleNs;

/** The sign-in form: POST /api/v1/login/, then the second step (limited access) or the dashboard. */
export default function LoginPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation(['common', 'validation']);
  const [showPassword, setShowPassword] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // Two fields, checked on leaving a field and on submit with the shared rules. Plain state rather
  // than react-hook-form: this page's JavaScript has a 200 KB budget (see README, Benchmark).
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const [isSubmitting, setSubmitting] = useState(false);
  const rules = { email: validateEmailField, password: validatePasswordField } as const;
  const check = (field: keyof typeof rules, value: string) => {
    const result = rules[field](value);
    setErrors((e) => ({ ...e, [field]: result === true ? undefined : result }));
    return result === true;
  };
  const field = (name: keyof typeof rules) => ({
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => {
      const value = e.target.value;
      setValues((v) => ({ ...v, [name]: value }));
      if (errors[name]) check(name, value);
    },
    onBlur: () => {
      if (values[name]) check(name, values[name]);
    },
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const valid = [check('email', values.email), check('password', values.password)].every(Boolean);
    if (!valid) return;
    const { email, password } = values;
    setSubmitting(true);
    setFailure(null);
    try {
      // The session module loads on submit, to keep this page light.
      const auth: AuthModule = await import('../../../lib/auth');
      const claims = await auth.logIn({ email: email.trim(), password, org: org.org });
      await navigate(auth.afterSignInPath(clientId, claims, search.get('redirectFrom')), { replace: true });
    } catch (error) {
      // Wrong credentials in our words; an unconfirmed address or a lockout (403, 429) in the server's.
      setFailure(error instanceof ApiError && error.status === 401 ? t('login.incorrect') : applyServerErrors(error, { fallback: t('login.failed') }));
    } finally {
      setSubmitting(false);
    }
  };

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
        <Stack component="form" noValidate spacing={2.5} onSubmit={(e) => void onSubmit(e)}>
          {failure && (
            <Typography role="alert" sx={{ p: 1.5, borderRadius: 1, bgcolor: 'action.hover', borderLeft: 4, borderColor: 'error.main', color: 'error.main' }}>
              {failure}
            </Typography>
          )}
          <TextInput
            label={t('login.email')}
            type="email"
            autoComplete="email"
            required
            error={errors.email ? t(errors.email) : undefined}
            {...field('email')}
          />
          <TextInput
            label={t('login.password')}
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            required
            error={errors.password ? t(errors.password) : undefined}
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
            {...field('password')}
          />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
            {t('login.submit')}
          </Button>
        </Stack>
        <Stack spacing={1} sx={{ mt: 3, alignItems: 'center', textAlign: 'center' }}>
          <Link component={RouterLink} to={paths.forgotPassword(clientId)}>
            {t('login.forgotPassword')}
          </Link>
          <Link component={RouterLink} to={paths.accessCode(clientId)}>
            {t('login.createAccount')}
          </Link>
        </Stack>
      </Paper>
    </Box>
  );
}
