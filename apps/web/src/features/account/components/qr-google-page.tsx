import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import * as QRCode from 'qrcode';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CODE_ENTRY_LENGTH } from '@healthbook/shared/constants';
import { CodeForm } from '../../../components/code-form';
import { failureText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useCancelMfaRegistration } from '../api/cancel-mfa-registration';
import { useConfirmMfaDevice } from '../api/confirm-mfa-device';
import type { ProfileNotice } from './profile-page';

/** The key inside an otpauth:// link, in groups of four for typing by hand. */
export function secretOf(provisioningUrl: string): string | null {
  try {
    const secret = new URL(provisioningUrl).searchParams.get('secret');
    return secret ? (secret.toUpperCase().match(/.{1,4}/g) ?? []).join(' ') : null;
  } catch {
    return null;
  }
}

/**
 * Authenticator set-up: the QR code of the provisioning link (and its key, for typing), the
 * note not to close the window, Cancel (the device is deleted) and Continue (the code entry);
 * a correct code enables the device and leads to the security settings.
 */
export default function QrGooglePage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const confirmDevice = useConfirmMfaDevice();
  const cancelRegistration = useCancelMfaRegistration();
  const uuid = search.get('uuid') ?? '';
  const value = search.get('value') ?? '';
  const secret = secretOf(value);
  const [image, setImage] = useState<string | null>(null);
  const [step, setStep] = useState<'scan' | 'code'>('scan');
  const [busy, setBusy] = useState(false);
  const busyRef = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    let cancelled = false;
    QRCode.toString(value, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' })
      .then((svg) => {
        if (!cancelled) setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [value]);

  const cancel = async () => {
    setBusy(true);
    // Abandoning the enrolment needs no password: the device was never confirmed.
    await cancelRegistration.mutateAsync(uuid).catch(() => undefined);
    await navigate(paths.profile(clientId, 3), { replace: true });
  };

  const confirm = async (entered: string) => {
    if (busyRef.current || entered.length !== CODE_ENTRY_LENGTH) return;
    busyRef.current = true;
    setBusy(true);
    setError(null);
    try {
      await confirmDevice.mutateAsync(entered);
      await navigate(paths.profile(clientId, 3), { replace: true, state: { notice: 'mfaEnabled' } satisfies ProfileNotice });
    } catch (err) {
      setError(failureText(t('mfa.registerError'), err));
      setInvalid(true);
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.replace(/\s/g, ''));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'start center', px: 2, py: { xs: 3, md: 6 } }}>
      <title>{`${t('qr.pageTitle')} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 520, p: { xs: 3, sm: 5 }, borderRadius: 3 }}>
        <Typography variant="h1" gutterBottom>
          {t('qr.title')}
        </Typography>
        <Typography role="note" sx={{ p: 1.5, mb: 3, borderRadius: 1, bgcolor: 'action.hover', borderLeft: 4, borderColor: 'warning.main', fontWeight: 600 }}>
          {t('qr.keepOpen')}
        </Typography>
        {step === 'scan' ? (
          <Stack spacing={2.5}>
            <Typography>{t('qr.scan')}</Typography>
            <Box sx={{ display: 'grid', placeItems: 'center' }}>
              {image ? (
                <Box component="img" src={image} alt={t('qr.imageAlt')} sx={{ width: 220, height: 220, bgcolor: '#fff', borderRadius: 1 }} />
              ) : (
                <Box sx={{ width: 220, height: 220, bgcolor: 'action.hover', borderRadius: 1 }} />
              )}
            </Box>
            {secret && (
              <Box>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
                  {t('qr.manual')}
                </Typography>
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
                  <Box component="code" aria-label={t('qr.secretLabel')} sx={{ fontFamily: 'monospace', fontSize: 16, letterSpacing: 1, overflowWrap: 'anywhere', p: 1, bgcolor: 'action.hover', borderRadius: 1 }}>
                    {secret}
                  </Box>
                  <Button size="small" onClick={() => void copy()}>
                    {t('qr.copy')}
                  </Button>
                  <Typography role="status" variant="body2" color="success.main">
                    {copied ? t('qr.copied') : ''}
                  </Typography>
                </Stack>
              </Box>
            )}
            <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
              <Button color="inherit" onClick={() => void cancel()} disabled={busy}>
                {t('qr.cancel')}
              </Button>
              <Button variant="contained" onClick={() => setStep('code')} disabled={busy}>
                {t('qr.continue')}
              </Button>
            </Stack>
          </Stack>
        ) : (
          <CodeForm
            label={t('mfa.codeLabel')}
            instructions={t('qr.enterCode')}
            busy={busy}
            invalid={invalid}
            error={error}
            onEdit={() => setInvalid(false)}
            onSubmit={(value) => void confirm(value)}
            actions={(complete) => (
              <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'space-between' }}>
                <Button color="inherit" onClick={() => setStep('scan')} disabled={busy}>
                  {t('qr.showCode')}
                </Button>
                <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5}>
                  <Button color="inherit" onClick={() => void cancel()} disabled={busy}>
                    {t('qr.cancel')}
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
    </Box>
  );
}
