import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import type { InvitationDetails } from '@healthbook/shared/contracts/invitations';
import { formatDobForDisplay, validateEmailField } from '@healthbook/shared/validation';
import { FormPage } from '../../../components/form-page';
import { LegalDialog, type LegalDoc } from '../../../components/legal-dialog';
import { NewPasswordFields, type NewPasswordValues } from '../../../components/new-password-fields';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { session } from '../../../lib/session';
import { useRegisterAccount } from '../api/register-account';
import { clearSignupDetails, isInvitationDetails, loadSignupDetails, saveSignupDetails } from '../signup-details';
import { CheckEmailDialog } from './check-email-dialog';

interface SignupForm extends NewPasswordValues {
  email: string;
  terms: boolean;
}

/** The invitation details from the access-code page (router state), or kept for this tab (a reload). */
function useInvitationDetails(orgId: number): InvitationDetails | null {
  const location = useLocation();
  const [details] = useState(() => {
    const fromState = (location.state as { userDetails?: unknown } | null)?.userDetails;
    if (isInvitationDetails(fromState)) {
      saveSignupDetails(fromState);
      return fromState;
    }
    return loadSignupDetails();
  });
  return details && details.org_id === orgId ? details : null;
}

/** Create an account from an invitation. Without one (a direct visit) the access-code page comes first. */
export default function SignupPage() {
  const { org, clientId } = useOrganizationContext();
  const details = useInvitationDetails(org.org);
  if (session.get()) return <Navigate to={paths.dashboard(clientId)} replace />;
  if (!details) return <Navigate to={paths.accessCode(clientId)} replace />;
  return <SignupForm details={details} />;
}

function SignupForm({ details }: { details: InvitationDetails }) {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation(['auth', 'validation']);
  const navigate = useNavigate();
  const registerAccount = useRegisterAccount();
  const [legalDoc, setLegalDoc] = useState<LegalDoc | null>(null);
  const [registeredEmail, setRegisteredEmail] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignupForm>({
    mode: 'onTouched',
    defaultValues: { email: details.email ?? '', password: '', confirmPassword: '', terms: false },
  });
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const email = values.email.trim();
    try {
      await registerAccount.mutateAsync({
        user_id: details.user_id,
        first_name: details.first_name,
        last_name: details.last_name,
        sex: details.gender.key,
        email,
        password: values.password,
        dob: details.dob,
        signup_code: details.signup_code,
        is_terms_privacy_policy_accepted: true,
        org_id: details.org_id ?? org.org,
      });
      clearSignupDetails();
      setRegisteredEmail(email);
    } catch (error) {
      // The spec: the answer applies per field (cleared on edit); the rest, such as the code, on top.
      setFailure(applyServerErrors(error, { setError, fields: ['email', 'password'], fallback: t('common.genericError') }));
    }
  });

  const { ref: termsRef, ...termsField } = register('terms', { validate: (v) => v || 'validation:termsRequired' });

  const legalButton = (doc: LegalDoc) => (
    <Link component="button" type="button" onClick={() => setLegalDoc(doc)} sx={{ verticalAlign: 'baseline', font: 'inherit' }} />
  );

  return (
    <FormPage pageTitle={t('signup.pageTitle')} heading={t('signup.title')} maxWidth={640}>
      <FormProvider {...form}>
        <Stack component="form" noValidate spacing={2} onSubmit={onSubmit} sx={{ mt: 2 }}>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
            <TextInput label={t('signup.firstName')} value={details.first_name} readOnly name="first_name" />
            <TextInput label={t('signup.lastName')} value={details.last_name} readOnly name="last_name" />
            <TextInput label={t('signup.dob')} value={formatDobForDisplay(details.dob)} readOnly name="dob" />
            <TextInput label={t('signup.gender')} value={details.gender.value} readOnly name="gender" />
          </Box>
          <TextInput
            label={t('signup.email')}
            type="email"
            autoComplete="email"
            required
            error={fieldErrorText(errors.email, t)}
            {...register('email', { validate: validateEmailField })}
          />
          <NewPasswordFields passwordLabel={t('signup.password')} confirmLabel={t('signup.confirmPassword')} />
          <FormControlLabel
            sx={{ alignItems: 'flex-start', mr: 0 }}
            control={<Checkbox sx={{ mt: -1 }} slotProps={{ input: { ref: termsRef } }} {...termsField} />}
            label={<Trans t={t} i18nKey="signup.terms" components={{ terms: legalButton('terms'), privacy: legalButton('privacy') }} />}
          />
          <Button type="submit" variant="contained" size="large" fullWidth disabled={!isValid || isSubmitting}>
            {t('signup.submit')}
          </Button>
        </Stack>
      </FormProvider>
      <LegalDialog doc={legalDoc} onClose={() => setLegalDoc(null)} />
      <CheckEmailDialog
        open={registeredEmail !== null}
        email={registeredEmail ?? ''}
        onClose={() => void navigate(paths.login(clientId), { replace: true })}
      />
    </FormPage>
  );
}
