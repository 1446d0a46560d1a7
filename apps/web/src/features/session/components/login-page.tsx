import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { validateEmailField, validatePasswordField } from '@healthbook/shared/validation';
import { ApiError } from '../../../lib/api-client';
import type * as AuthModuleNs from '../../../lib/auth';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { EyeIcon, EyeOffIcon } from '../../../components/plain/icons';
import { TextField } from '../../../components/plain/text-field';

type AuthModule = typeof AuthModuleNs;

/**
 * The sign-in form: POST /api/v1/login/, then the second step (limited access) or the dashboard.
 * Plain elements (components/plain, plain.css), no MUI: this page's JavaScript has a 150 KB budget.
 */
export default function LoginPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation(['common', 'validation']);
  const [showPassword, setShowPassword] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  // Two fields, checked on leaving a field and on submit with the shared rules. Plain state rather
  // than react-hook-form: this page's JavaScript has a 150 KB budget (see README, Benchmark).
  // Arriving from the set-password page: say the password is set, with the address filled in.
  const arrival = useLocation().state as { passwordSet?: string } | null;
  const passwordSet = typeof arrival?.passwordSet === 'string' ? arrival.passwordSet : null;
  const [values, setValues] = useState({ email: passwordSet ?? '', password: '' });
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
    <div className="hb-center">
      <title>{`${t('login.pageTitle')} | ${org.org_name}`}</title>
      <div className="hb-card">
        <h1 className="hb-h1">{t('login.title')}</h1>
        <p className="hb-lead">{t('login.subtitle', { orgName: org.org_name })}</p>
        <form noValidate className="hb-stack hb-form" onSubmit={(e) => void onSubmit(e)}>
          {passwordSet && !failure && (
            <p role="status" className="hb-notice">
              {t('login.passwordSet')}
            </p>
          )}
          {failure && (
            <p role="alert" className="hb-failure">
              {failure}
            </p>
          )}
          <TextField
            label={t('login.email')}
            type="email"
            autoComplete="email"
            required
            error={errors.email ? t(errors.email) : undefined}
            {...field('email')}
          />
          <TextField
            label={t('login.password')}
            type={showPassword ? 'text' : 'password'}
            autoComplete="current-password"
            required
            error={errors.password ? t(errors.password) : undefined}
            endAdornment={
              <button
                type="button"
                className="hb-icon-button"
                onClick={() => setShowPassword((v) => !v)}
                aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
              >
                {showPassword ? <EyeOffIcon /> : <EyeIcon />}
              </button>
            }
            {...field('password')}
          />
          <button type="submit" className="hb-button hb-button-contained" disabled={isSubmitting}>
            {t('login.submit')}
          </button>
        </form>
        <div className="hb-stack hb-links">
          <RouterLink className="hb-link" to={paths.forgotPassword(clientId)}>
            {t('login.forgotPassword')}
          </RouterLink>
          <RouterLink className="hb-link" to={paths.accessCode(clientId)}>
            {t('login.createAccount')}
          </RouterLink>
        </div>
      </div>
    </div>
  );
}
