import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CODE_ENTRY_LENGTH } from '@healthbook/shared/constants';
import type { MfaDevice, MfaDeviceType } from '@healthbook/shared/contracts/mfa';
import { CodeForm } from '../../../components/code-form';
import { ConfirmIdentityDialog } from '../../../components/confirm-identity-dialog';
import { failureText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { canProveWithCode, isProofError, type IdentityProof } from '../../../lib/reauth';
import { useCancelMfaRegistration } from '../api/cancel-mfa-registration';
import { useConfirmMfaDevice } from '../api/confirm-mfa-device';
import { useRegisterMfaDevice } from '../api/register-mfa-device';
import { useSignedInUser } from '../hooks/use-signed-in-user';

const DEVICE_TYPES: MfaDeviceType[] = ['email', 'google'];

/**
 * 2FA type selection: e-mail or an authenticator app. Register asks for the password again
 * ("Confirm it's you"). E-mail: the code entry appears (a code was e-mailed) and a correct code
 * enables it; authenticator: on to the QR code page.
 */
export default function MfaRegisterPage() {
  const { org, clientId } = useOrganizationContext();
  const user = useSignedInUser();
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const registerDevice = useRegisterMfaDevice();
  const confirmDevice = useConfirmMfaDevice();
  const cancelRegistration = useCancelMfaRegistration();
  const [deviceType, setDeviceType] = useState<MfaDeviceType>('email');
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState<MfaDevice | null>(null);
  // The proof given for this enrolment, for "Send a new code" (which registers again); forgotten on leaving it.
  const proof = useRef<IdentityProof | null>(null);
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const errorId = useId();

  const fail = (err: unknown) => setError(failureText(t('mfa.registerError'), err));

  /** Registers with the proof: the QR code page for an app, the code entry for e-mail. Rejects as the server did. */
  const register = async (type: MfaDeviceType, given: IdentityProof) => {
    const device = await registerDevice.mutateAsync({ device_type: type, ...given });
    if (device.device_type === 'google' && device.provisioning_url) {
      await navigate(paths.qrGoogle(clientId, device.uuid, device.provisioning_url));
      return;
    }
    proof.current = given;
    setConfirming(false);
    setPending(device);
    setInvalid(false);
    setAttempt((n) => n + 1);
  };

  const resend = async () => {
    if (busyRef.current || !proof.current) return;
    busyRef.current = true;
    setBusy(true);
    setError(null);
    try {
      await register('email', proof.current);
    } catch (err) {
      fail(err);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const confirm = async (value: string) => {
    if (busyRef.current || value.length !== CODE_ENTRY_LENGTH) return;
    busyRef.current = true;
    setBusy(true);
    setError(null);
    try {
      await confirmDevice.mutateAsync(value);
      proof.current = null;
      await navigate(paths.mfaSuccess(clientId), { replace: true });
    } catch (err) {
      fail(err);
      setInvalid(true);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const back = () => {
    if (pending) {
      // Leaving an unfinished e-mail registration: the unconfirmed device goes (no password needed).
      cancelRegistration.mutate(pending.uuid);
      proof.current = null;
      setPending(null);
      setError(null);
      return;
    }
    void navigate(paths.profile(clientId, 3));
  };

  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'start center', px: 2, py: { xs: 3, md: 6 } }}>
      <title>{`${t('mfa.pageTitle')} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 520, p: { xs: 3, sm: 5 }, borderRadius: 3 }}>
        <Typography variant="h1" gutterBottom>
          {t('mfa.title')}
        </Typography>
        {!pending ? (
          <Stack
            component="form"
            noValidate
            spacing={3}
            onSubmit={(e) => {
              e.preventDefault();
              setError(null);
              setConfirming(true);
            }}
          >
            <Typography color="text.secondary">{t('mfa.intro')}</Typography>
            <FormControl component="fieldset">
              <FormLabel component="legend" sx={{ mb: 1 }}>
                {t('mfa.typeLabel')}
              </FormLabel>
              <RadioGroup value={deviceType} onChange={(_e, value) => setDeviceType(value as MfaDeviceType)}>
                {DEVICE_TYPES.map((type) => (
                  <FormControlLabel
                    key={type}
                    value={type}
                    disabled={busy}
                    control={<Radio />}
                    sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { mt: -0.75 } }}
                    label={
                      <Box>
                        <Typography sx={{ fontWeight: 600 }}>{t(`mfa.types.${type}`)}</Typography>
                        <Typography variant="body2" color="text.secondary">
                          {type === 'email' ? t('mfa.emailHint', { email: user.email }) : t('mfa.googleHint')}
                        </Typography>
                      </Box>
                    }
                  />
                ))}
              </RadioGroup>
            </FormControl>
            <ErrorText id={errorId} error={error} />
            <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
              <Button onClick={back} color="inherit" disabled={busy}>
                {t('mfa.back')}
              </Button>
              <Button type="submit" variant="contained" disabled={busy}>
                {t('mfa.register')}
              </Button>
            </Stack>
          </Stack>
        ) : (
          <CodeForm
            label={t('mfa.codeLabel')}
            instructions={t('mfa.emailSent', { email: user.email })}
            busy={busy}
            invalid={invalid}
            error={error}
            resetKey={attempt}
            onEdit={() => setInvalid(false)}
            onSubmit={(value) => void confirm(value)}
            actions={(complete) => (
              <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between' }}>
                <Button onClick={back} color="inherit" disabled={busy}>
                  {t('mfa.back')}
                </Button>
                <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5}>
                  <Button onClick={() => void resend()} disabled={busy}>
                    {t('mfa.resend')}
                  </Button>
                  <Button type="submit" variant="contained" disabled={busy || !complete}>
                    {t('mfa.verify')}
                  </Button>
                </Stack>
              </Stack>
            )}
          />
        )}
      </Paper>
      <ConfirmIdentityDialog
        open={confirming}
        description={t('reauth.addFactor')}
        submitLabel={t('mfa.register')}
        allowCode={canProveWithCode(user)}
        onConfirm={async (_values, given) => {
          try {
            await register(deviceType, given);
          } catch (err) {
            // A refused password stays in the dialog; any other failure is the registration's.
            if (isProofError(err)) throw err;
            setConfirming(false);
            fail(err);
          }
        }}
        onClose={() => setConfirming(false)}
      />
    </Box>
  );
}

/** The error, when there is one (role alert: read out as it appears). */
function ErrorText({ id, error }: { id: string; error: string | null }) {
  if (!error) return null;
  return (
    <Typography id={id} role="alert" color="error">
      {error}
    </Typography>
  );
}
