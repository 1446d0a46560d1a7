import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as QRCode from 'qrcode';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import type { CreatedShare } from '@healthbook/shared/contracts/sharing';
import { dateTimeFormat } from '../share-text';

/** The QR code's image: large enough to print, drawn at 240 px. */
const QR_PIXELS = 512;

/** The PNG of a QR code of an address (a data: URL), made in the browser; null until drawn, or when it could not be. */
export function useQrPng(text: string | null): { png: string | null; failed: boolean } {
  const [state, setState] = useState<{ text: string; png: string | null; failed: boolean } | null>(null);
  useEffect(() => {
    if (!text) return;
    let cancelled = false;
    QRCode.toDataURL(text, { width: QR_PIXELS, margin: 2, errorCorrectionLevel: 'M', type: 'image/png' }).then(
      (png) => {
        if (!cancelled) setState({ text, png, failed: false });
      },
      () => {
        if (!cancelled) setState({ text, png: null, failed: true });
      },
    );
    return () => {
      cancelled = true;
    };
  }, [text]);
  return state && state.text === text ? { png: state.png, failed: state.failed } : { png: null, failed: false };
}

export interface ShareResultProps {
  share: CreatedShare;
  /** A new link or passcode of an existing share (the old one no longer works). */
  reissued?: boolean;
}

/**
 * What a new share (or a new link or passcode) gives the patient, once: for a link, that it was
 * e-mailed and the address to copy; for a QR code, the code (PNG to download), the passcode and
 * the expiry.
 */
export function ShareResult({ share, reissued = false }: ShareResultProps) {
  const { t, i18n } = useTranslation('sharing');
  const expires = dateTimeFormat(i18n.resolvedLanguage ?? 'en').format(new Date(share.expires_at));
  const names = { name: share.recipient_name, email: share.recipient_email, date: expires };
  return (
    <Stack spacing={2}>
      <Alert severity="success" role="status">
        {share.method === 'link' ? t(reissued ? 'result.linkResent' : 'result.linkSent', names) : t(reissued ? 'result.qrReissued' : 'result.qrReady', names)}
      </Alert>
      {share.method === 'qr' ? <QrResult share={share} expires={expires} /> : <LinkResult url={share.url} expires={expires} />}
    </Stack>
  );
}

/** A read-only address with a Copy button (selected for a manual copy when the clipboard is refused). */
function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  const { t } = useTranslation('sharing');
  const [copied, setCopied] = useState<boolean | null>(null);
  const fieldId = useId();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
      (document.getElementById(fieldId) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          id={fieldId}
          label={label}
          value={value}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { readOnly: true, spellCheck: false }, input: { sx: { fontFamily: 'monospace', fontSize: '0.85rem' } } }}
          onFocus={(e) => e.target.select()}
        />
        <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()} sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
          {copyLabel}
        </Button>
      </Stack>
      <Typography role="status" variant="body2" sx={{ mt: 1, minHeight: '1.5em' }} color={copied === false ? 'error' : 'text.secondary'}>
        {copied === true ? t('result.copied') : copied === false ? t('result.copyFailed') : ''}
      </Typography>
    </>
  );
}

function LinkResult({ url, expires }: { url: string; expires: string }) {
  const { t } = useTranslation('sharing');
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" sx={{ mb: 1 }}>
        {t('result.linkTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('result.linkHint')}
      </Typography>
      <CopyField label={t('result.linkLabel')} value={url} copyLabel={t('result.copyLink')} />
      <Typography variant="body2" color="text.secondary">
        {t('result.validUntil', { date: expires })}
      </Typography>
    </Paper>
  );
}

function QrResult({ share, expires }: { share: CreatedShare; expires: string }) {
  const { t } = useTranslation('sharing');
  const { png, failed } = useQrPng(share.url);
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', sm: 'auto 1fr' }, alignItems: 'start' }}>
        <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1.5 }}>
          <Box sx={{ width: 240, height: 240, display: 'grid', placeItems: 'center', bgcolor: '#fff', borderRadius: 2, border: 1, borderColor: 'divider' }}>
            {png ? (
              <Box component="img" src={png} alt={t('result.qrAlt', { name: share.recipient_name })} sx={{ width: 232, height: 232 }} />
            ) : failed ? (
              <Typography color="error" sx={{ p: 2, textAlign: 'center' }}>
                {t('result.qrFailed')}
              </Typography>
            ) : (
              <CircularProgress aria-label={t('result.qrTitle')} />
            )}
          </Box>
          {png ? (
            <Button variant="contained" startIcon={<Download />} component="a" href={png} download={`share-qr-code-${share.id}.png`}>
              {t('result.downloadPng')}
            </Button>
          ) : (
            <Button variant="contained" startIcon={<Download />} disabled>
              {t('result.downloadPng')}
            </Button>
          )}
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h2" sx={{ mb: 1 }}>
            {t('result.qrTitle')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('result.qrHint', { name: share.recipient_name })}
          </Typography>
          <Box component="dl" sx={{ m: 0 }}>
            <Typography component="dt" variant="subtitle1" sx={{ fontWeight: 600 }}>
              {t('result.passcode')}
            </Typography>
            <Typography
              component="dd"
              data-testid="share-passcode"
              sx={{ m: 0, fontFamily: 'monospace', fontSize: { xs: '2.25rem', sm: '2.75rem' }, fontWeight: 700, letterSpacing: '0.3em', lineHeight: 1.3, my: 0.5 }}
            >
              {share.passcode}
            </Typography>
          </Box>
          <Alert severity="warning" sx={{ my: 1.5 }}>
            {t('result.passcodeOnce')}
          </Alert>
          <Typography variant="body2" color="text.secondary">
            {t('result.validUntil', { date: expires })}
          </Typography>
        </Box>
      </Box>
      {share.smart_health_link ? (
        <Box sx={{ mt: 3 }}>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 0.5 }}>
            {t('result.shlTitle')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('result.shlHint')}
          </Typography>
          <CopyField label={t('result.shlLabel')} value={share.smart_health_link} copyLabel={t('result.copyShl')} />
        </Box>
      ) : null}
    </Paper>
  );
}
