import { useEffect, useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CareInvitationPreview } from '@healthbook/shared/contracts/care-network';
import { GENDER_KEYS } from '@healthbook/shared/constants';
import { parseDob, validateDobNotFuture } from '@healthbook/shared/validation';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { DelayedLoader } from '../../../components/delayed-loader';
import { FormPage } from '../../../components/form-page';
import { TextInput } from '../../../components/text-input';
import { ApiError } from '../../../lib/api-client';
import { signOut, useSession } from '../../../lib/auth';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { viewingPatient } from '../../../lib/viewing-patient';
import { useAcceptInvitation, useDeclineInvitation, useInvitationPreview, useJoinThroughSignup } from '../api/invitation';
import { categoryLabel } from '../categories';
import { formatDay } from '../format';
import { pendingInvitation } from '../pending-invitation';

/**
 * caring-person-info: where a care-network invitation's e-mail link lands (#token=…). It shows
 * what the invitation offers; the invited account accepts or declines; someone signed out signs
 * in (and comes back here), or, without an account, gives their details and goes on to the usual
 * sign-up with an access code made for them (and is brought back here after signing in).
 */
export default function CaringPersonInfoPage() {
  const { t, i18n } = useTranslation(['careNetwork', 'records', 'auth', 'validation']);
  const language = i18n.resolvedLanguage ?? 'en';
  const { clientId } = useOrganizationContext();
  // Taken from the address once (and the address cleaned), then kept for the tab.
  const [{ token, link }, setOpened] = useState(() => ({ token: pendingInvitation.capture(), link: 0 }));
  useEffect(() => {
    // Another invitation link opened in this very page (only the fragment changes): read it too.
    const onHash = () => {
      if (!window.location.hash.includes('token=')) return;
      const next = pendingInvitation.capture();
      setOpened((current) => ({ token: next, link: current.link + 1 }));
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const preview = useInvitationPreview(token, link, language);
  const { claims, user } = useSession();
  const signedIn = claims?.access === 'full' && user !== null;

  useEffect(() => {
    // Here while signed in: no need to be brought back after a later sign-in.
    if (signedIn) pendingInvitation.markReturned();
  }, [signedIn]);

  const gone = preview.isError && preview.error instanceof ApiError && preview.error.status === 404;
  const closed = preview.data && preview.data.status !== 'pending';
  useEffect(() => {
    // Nothing left to answer: the tab forgets the token.
    if (gone || closed) pendingInvitation.clear();
  }, [gone, closed]);

  const frame = (children: React.ReactNode) => (
    <FormPage pageTitle={t('invitation.pageTitle')} heading={t('invitation.heading')} maxWidth={600}>
      {children}
    </FormPage>
  );

  if (token === null) return frame(<Alert severity="info">{t('invitation.noToken')}</Alert>);
  if (preview.isPending) return frame(<DelayedLoader />);
  if (preview.isError)
    return frame(
      <Alert severity={gone ? 'warning' : 'error'} role="alert">
        {gone ? t('invitation.notFound') : t('invitation.loadFailed')}
      </Alert>,
    );
  const invitation = preview.data;
  if (invitation.status !== 'pending') return frame(<Closed invitation={invitation} signedIn={signedIn} />);
  return frame(
    <>
      <Offer invitation={invitation} language={language} />
      {signedIn ? (
        invitation.email.toLowerCase() === user.email.toLowerCase() ? (
          <Answer token={token} invitation={invitation} />
        ) : (
          <WrongAccount token={token} invitation={invitation} me={user.email} />
        )
      ) : invitation.has_account ? (
        <Box sx={{ mt: 3 }}>
          <Typography sx={{ mb: 2 }}>{t('invitation.signInNote', { email: invitation.email })}</Typography>
          <Button component={RouterLink} to={paths.loginFrom(clientId, paths.caringPersonInfo(clientId))} variant="contained" size="large" fullWidth>
            {t('invitation.signInToAccept')}
          </Button>
        </Box>
      ) : (
        <JoinForm token={token} invitation={invitation} />
      )}
    </>,
  );
}

/** What the invitation offers: who, what access, which categories, until when. */
function Offer({ invitation, language }: { invitation: CareInvitationPreview; language: string }) {
  const { t } = useTranslation(['careNetwork', 'records']);
  return (
    <Stack spacing={1.5} sx={{ mt: 1 }}>
      <Typography sx={{ fontSize: '1.15rem', fontWeight: 600 }}>{t(`invitation.offer.${invitation.access}`, { patient: invitation.patient_name })}</Typography>
      {invitation.inviter_name !== invitation.patient_name && <Typography color="text.secondary">{t('invitation.sentBy', { name: invitation.inviter_name })}</Typography>}
      <Typography>
        {invitation.categories === null
          ? t('invitation.allCategories')
          : t('invitation.someCategories', { list: invitation.categories.map((c) => categoryLabel(t, c)).join(', ') })}
      </Typography>
      <Typography>{invitation.access === 'full' ? t('invitation.fullMeans') : t('invitation.readOnlyMeans')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('invitation.sentTo', { email: invitation.email })}
        {invitation.expires_at ? ` ${t('invitation.expires', { date: formatDay(invitation.expires_at, language) })}` : ''}
      </Typography>
    </Stack>
  );
}

/** An invitation that can no longer be answered. */
function Closed({ invitation, signedIn }: { invitation: CareInvitationPreview; signedIn: boolean }) {
  const { t } = useTranslation('careNetwork');
  const { clientId } = useOrganizationContext();
  const text = {
    active: t('invitation.active'),
    expired: t('invitation.expired', { patient: invitation.patient_name }),
    revoked: t('invitation.revoked', { patient: invitation.patient_name }),
    declined: t('invitation.declinedStatus'),
    pending: '',
  }[invitation.status];
  return (
    <Stack spacing={3}>
      <Alert severity={invitation.status === 'active' ? 'info' : 'warning'} role="alert">
        {text}
      </Alert>
      <Button component={RouterLink} to={signedIn ? paths.dashboard(clientId) : paths.login(clientId)} variant="outlined">
        {signedIn ? t('invitation.goToDashboard') : t('invitation.signIn')}
      </Button>
    </Stack>
  );
}

/** The invited account accepts (the patient's record opens on the dashboard) or declines. */
function Answer({ token, invitation }: { token: string; invitation: CareInvitationPreview }) {
  const { t } = useTranslation('careNetwork');
  const navigate = useNavigate();
  const { clientId } = useOrganizationContext();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const [confirming, setConfirming] = useState(false);
  const [declined, setDeclined] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onAccept = async () => {
    setFailure(null);
    try {
      const accepted = await accept.mutateAsync(token);
      pendingInvitation.clear();
      viewingPatient.set(accepted.patient_id);
      await navigate(paths.dashboard(clientId));
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback: t('notices.failed') }));
    }
  };

  const onDecline = async () => {
    setConfirming(false);
    setFailure(null);
    try {
      await decline.mutateAsync(token);
      pendingInvitation.clear();
      setDeclined(true);
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback: t('notices.failed') }));
    }
  };

  if (declined)
    return (
      <Alert severity="info" role="status" sx={{ mt: 3 }}>
        {t('invitation.declined')}
      </Alert>
    );
  return (
    <Box sx={{ mt: 3 }}>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        <Button variant="contained" size="large" onClick={() => void onAccept()} disabled={accept.isPending || decline.isPending} sx={{ flex: '1 1 160px' }}>
          {t('invitation.accept')}
        </Button>
        <Button variant="outlined" size="large" onClick={() => setConfirming(true)} disabled={accept.isPending || decline.isPending} sx={{ flex: '1 1 160px' }}>
          {t('invitation.decline')}
        </Button>
      </Box>
      <ConfirmDialog
        open={confirming}
        title={t('invitation.declineTitle')}
        confirmLabel={t('invitation.declineConfirm')}
        destructive
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onDecline()}
      >
        <Typography>{t('invitation.declineText', { patient: invitation.patient_name })}</Typography>
      </ConfirmDialog>
    </Box>
  );
}

/** Signed in with another account than the invited one: sign out, keep the invitation, sign in with the right one. */
function WrongAccount({ token, invitation, me }: { token: string; invitation: CareInvitationPreview; me: string }) {
  const { t } = useTranslation('careNetwork');
  const navigate = useNavigate();
  const { clientId } = useOrganizationContext();
  const [busy, setBusy] = useState(false);
  const switchAccount = async () => {
    setBusy(true);
    await signOut(clientId);
    // Signing out empties the tab's storage: the invitation stays.
    pendingInvitation.restore(token);
    await navigate(paths.loginFrom(clientId, paths.caringPersonInfo(clientId)), { replace: true });
  };
  return (
    <Stack spacing={2} sx={{ mt: 3 }}>
      <Alert severity="warning" role="alert">
        {t('invitation.wrongAccount', { email: invitation.email, me })}
      </Alert>
      <Button variant="contained" onClick={() => void switchAccount()} disabled={busy}>
        {t('invitation.switchAccount', { email: invitation.email })}
      </Button>
    </Stack>
  );
}

interface JoinForm {
  first_name: string;
  last_name: string;
  dob: string;
  gender: string;
}

const JOIN_FIELDS = ['first_name', 'last_name', 'dob', 'gender'] as const;
const required = (message: string) => (value: string) => (value.trim() ? true : message);

/** No account with the invited address: the person's details, then the usual sign-up with an access code made for them. */
function JoinForm({ token, invitation }: { token: string; invitation: CareInvitationPreview }) {
  const { t } = useTranslation(['careNetwork', 'auth', 'validation']);
  const navigate = useNavigate();
  const { org, clientId } = useOrganizationContext();
  const join = useJoinThroughSignup();
  const headingId = useId();
  const genderLabelId = useId();
  const genderHelpId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<JoinForm>({ mode: 'onTouched', defaultValues: { first_name: '', last_name: '', dob: '', gender: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      const userDetails = await join.mutateAsync({
        orgId: org.org,
        body: {
          token,
          first_name: values.first_name.trim(),
          last_name: values.last_name.trim(),
          dob: parseDob(values.dob) ?? values.dob.trim(),
          gender: values.gender as (typeof GENDER_KEYS)[number],
        },
      });
      // The sign-up page takes the invitation's details from the navigation (as after its own access-code step).
      await navigate(paths.signup(clientId), { state: { userDetails } });
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: JOIN_FIELDS, fallback: t('notices.failed') }));
    }
  });

  const genderError = fieldErrorText(errors.gender, t);
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 4 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('invitation.join.heading', { org: invitation.organization.name })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('invitation.join.note', { email: invitation.email })}
      </Typography>
      <Stack component="form" noValidate spacing={2} onSubmit={onSubmit}>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
          <TextInput
            label={t('invitation.join.firstName')}
            autoComplete="given-name"
            required
            error={fieldErrorText(errors.first_name, t)}
            {...register('first_name', { validate: required('validation:firstNameRequired') })}
          />
          <TextInput
            label={t('invitation.join.lastName')}
            autoComplete="family-name"
            required
            error={fieldErrorText(errors.last_name, t)}
            {...register('last_name', { validate: required('validation:lastNameRequired') })}
          />
        </Box>
        <TextInput
          label={t('invitation.join.dob')}
          placeholder={t('auth:common.dobPlaceholder')}
          helperText={t('auth:common.dobHint')}
          inputProps={{ inputMode: 'numeric' }}
          autoComplete="bday"
          required
          error={fieldErrorText(errors.dob, t)}
          {...register('dob', { validate: (value) => validateDobNotFuture(value) })}
        />
        <Controller
          name="gender"
          control={control}
          rules={{ validate: required('validation:genderInvalid') }}
          render={({ field }) => (
            <FormControl component="fieldset" required error={Boolean(genderError)}>
              <FormLabel component="legend" id={genderLabelId}>
                {t('invitation.join.gender')}
              </FormLabel>
              <RadioGroup
                row
                aria-labelledby={genderLabelId}
                aria-describedby={genderError ? genderHelpId : undefined}
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
              >
                {GENDER_KEYS.map((key, index) => (
                  <FormControlLabel
                    key={key}
                    value={key}
                    control={<Radio slotProps={{ input: { ref: index === 0 ? field.ref : undefined } }} />}
                    label={t(`auth:invite.genders.${key}`)}
                  />
                ))}
              </RadioGroup>
              <FormHelperText id={genderHelpId} role={genderError ? 'alert' : undefined}>
                {genderError ?? ' '}
              </FormHelperText>
            </FormControl>
          )}
        />
        <Button type="submit" variant="contained" size="large" fullWidth disabled={isSubmitting}>
          {t('invitation.join.submit')}
        </Button>
      </Stack>
    </Box>
  );
}
