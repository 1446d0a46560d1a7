import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AccountSetupCheckAnswer } from '@healthbook/shared/contracts/account-setup';
import { DelayedLoader } from '../../../components/delayed-loader';
import { FormPage } from '../../../components/form-page';
import { NewPasswordFields, type NewPasswordValues } from '../../../components/new-password-fields';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { session } from '../../../lib/session';
import { useAccountSetupLink } from '../api/check-account-setup-link';
import { useCompleteAccountSetup } from '../api/complete-account-setup';

/** Why a link is refused: unknown (400), expired or used (410 with reason), in the server's words. */
interface Refusal {
  kind: 'invalid' | 'expired' | 'used';
  message: string | null;
}

function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof ApiError) || error.status >= 500) return null;
  const data = (error.data ?? {}) as { detail?: unknown; reason?: unknown };
  const message = typeof data.detail === 'string' ? data.detail : null;
  if (error.status === 410) return { kind: data.reason === 'expired' ? 'expired' : 'used', message };
  return { kind: 'invalid', message };
}

/**
 * The link of the set-password e-mail (`password/set/{uid}/{token}`): an account made by an
 * operator or an administrator gets its first password here. The link is checked on arrival,
 * so a used or expired one is refused with its own message before anyone types; the password
 * follows the sign-up rules (the same fields); then sign-in, with a confirmation.
 */
export default function SetPasswordPage() {
  const { clientId } = useOrganizationContext();
  const { uid = '', token = '' } = useParams();
  if (session.get()) return <Navigate to={paths.dashboard(clientId)} replace />;
  if (!uid || !token) return <RefusedLink refusal={{ kind: 'invalid', message: null }} />;
  return <SetPasswordCheck uid={uid} token={token} />;
}

function SetPasswordCheck({ uid, token }: { uid: string; token: string }) {
  const { org } = useOrganizationContext();
  const { t } = useTranslation('auth');
  const check = useAccountSetupLink({ uid, token });
  const [refusedLater, setRefusedLater] = useState<Refusal | null>(null);

  if (check.isPending) {
    return (
      <>
        <title>{`${t('setPassword.pageTitle')} | ${org.org_name}`}</title>
        <DelayedLoader label={t('setPassword.checking')} />
      </>
    );
  }
  const refusal = refusedLater ?? (check.isError ? refusalOf(check.error) : null);
  if (refusal) return <RefusedLink refusal={refusal} />;
  if (check.isError || !check.data) {
    return (
      <FormPage pageTitle={t('setPassword.pageTitle')} heading={t('setPassword.title')}>
        <Alert severity="error" sx={{ my: 2 }}>
          {t('common.genericError')}
        </Alert>
      </FormPage>
    );
  }
  return <SetPasswordForm uid={uid} token={token} account={check.data} onRefused={setRefusedLater} />;
}

function SetPasswordForm({
  uid,
  token,
  account,
  onRefused,
}: {
  uid: string;
  token: string;
  account: AccountSetupCheckAnswer;
  onRefused: (refusal: Refusal) => void;
}) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation(['auth', 'validation']);
  const navigate = useNavigate();
  const complete = useCompleteAccountSetup();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<NewPasswordValues>({ mode: 'onTouched', defaultValues: { password: '', confirmPassword: '' } });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const answer = await complete.mutateAsync({ uid, token, password: values.password });
      await navigate(paths.login(answer.client_id || clientId), { replace: true, state: { passwordSet: answer.email } });
    } catch (error) {
      // The link stopped working meanwhile (used in another tab, expired): say so, as on arrival.
      if (error instanceof ApiError && error.status === 410) {
        onRefused(refusalOf(error)!);
        return;
      }
      setFailure(applyServerErrors(error, { setError, fields: ['password'], fallback: t('common.genericError') }));
    }
  });

  return (
    <FormPage pageTitle={t('setPassword.pageTitle')} heading={t('setPassword.title')}>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('setPassword.welcome', { name: account.first_name, orgName: account.org_name })}
      </Typography>
      <Typography sx={{ mb: 3, fontWeight: 500, overflowWrap: 'anywhere' }}>{account.email}</Typography>
      <FormProvider {...form}>
        <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
          {failure && <Alert severity="error">{failure}</Alert>}
          {/* The account's address, for password managers to store the new password with. */}
          <Box component="input" type="email" name="username" autoComplete="username" value={account.email} readOnly hidden aria-hidden="true" tabIndex={-1} />
          <NewPasswordFields passwordLabel={t('setPassword.password')} confirmLabel={t('setPassword.confirmPassword')} />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
            {t('setPassword.submit')}
          </Button>
        </Stack>
      </FormProvider>
    </FormPage>
  );
}

function RefusedLink({ refusal }: { refusal: Refusal }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('auth');
  const heading = t(refusal.kind === 'expired' ? 'setPassword.expiredTitle' : refusal.kind === 'used' ? 'setPassword.usedTitle' : 'setPassword.invalidTitle');
  return (
    <FormPage pageTitle={t('setPassword.pageTitle')} heading={heading}>
      <Alert severity={refusal.kind === 'used' ? 'info' : 'error'} sx={{ my: 2 }}>
        {refusal.message ?? t('setPassword.invalid')}
      </Alert>
      {refusal.kind === 'used' ? (
        <Button component={RouterLink} to={paths.login(clientId)} variant="contained" size="large" fullWidth>
          {t('common.signIn')}
        </Button>
      ) : (
        <Stack spacing={1}>
          {refusal.kind === 'expired' && (
            <Link component={RouterLink} to={paths.forgotPassword(clientId)}>
              {t('setPassword.forgotPassword')}
            </Link>
          )}
          <Link component={RouterLink} to={paths.login(clientId)}>
            {t('common.goToSignIn')}
          </Link>
        </Stack>
      )}
    </FormPage>
  );
}
