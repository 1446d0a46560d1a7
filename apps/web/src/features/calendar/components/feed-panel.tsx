import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogContentText from '@mui/material/DialogContentText';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ContentCopy from '@mui/icons-material/ContentCopy';
import EventRepeat from '@mui/icons-material/EventRepeat';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { useCreateFeed } from '../api/create-feed';
import { useDeleteFeed } from '../api/delete-feed';
import { useFeed } from '../api/get-feed';
import { formatters, userTimeZone } from '../calendar-time';

/**
 * "Subscribe in your calendar app": the private webcal feed. Making it (or a new one, which ends
 * the old) shows its address once, with a copy button; turning it off ends it.
 */
export function FeedPanel() {
  const { t, i18n } = useTranslation('calendar');
  const headingId = useId();
  const feed = useFeed();
  const create = useCreateFeed();
  const remove = useDeleteFeed();
  const [confirmOff, setConfirmOff] = useState(false);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const [failure, setFailure] = useState(false);
  const url = create.data?.url ?? null;
  const active = feed.data?.active === true;
  const busy = create.isPending || remove.isPending;

  const make = () => {
    setFailure(false);
    setCopied(null);
    create.mutate(undefined, { onError: () => setFailure(true) });
  };
  const turnOff = () => {
    setConfirmOff(false);
    setFailure(false);
    create.reset();
    remove.mutate(undefined, { onError: () => setFailure(true) });
  };
  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <EventRepeat color="primary" aria-hidden />
        <Typography id={headingId} variant="h2">
          {t('feed.title')}
        </Typography>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('feed.intro')}
      </Typography>
      {feed.isPending ? (
        <Skeleton variant="rounded" height={40} />
      ) : (
        <>
          <Typography sx={{ mb: 2 }}>
            {active ? t('feed.on', { date: feed.data?.created_at ? formatters(i18n.resolvedLanguage, userTimeZone()).date(feed.data.created_at) : '' }) : t('feed.off')}
          </Typography>
          {url && (
            <Alert severity="info" sx={{ mb: 2 }}>
              <Typography sx={{ mb: 1.5 }}>{t('feed.shownOnce')}</Typography>
              <TextField
                label={t('feed.address')}
                value={url}
                fullWidth
                size="small"
                onFocus={(e) => e.target.select()}
                slotProps={{
                  htmlInput: { readOnly: true, spellCheck: false },
                  input: {
                    endAdornment: (
                      <InputAdornment position="end">
                        <Button size="small" startIcon={<ContentCopy />} onClick={() => void copy()}>
                          {t('feed.copy')}
                        </Button>
                      </InputAdornment>
                    ),
                  },
                }}
              />
              <Typography role="status" variant="body2" sx={{ mt: 1, minHeight: '1.5em' }}>
                {copied === 'yes' ? t('feed.copied') : copied === 'failed' ? t('feed.copyFailed') : ''}
              </Typography>
              <Button href={url} size="small" variant="outlined">
                {t('feed.open')}
              </Button>
            </Alert>
          )}
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {t('feed.failed')}
            </Alert>
          )}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' } }}>
            <Button variant={active ? 'outlined' : 'contained'} onClick={make} disabled={busy}>
              {active ? t('feed.reset') : t('feed.create')}
            </Button>
            {active && (
              <Button color="error" variant="outlined" onClick={() => setConfirmOff(true)} disabled={busy}>
                {t('feed.turnOff')}
              </Button>
            )}
          </Stack>
          {active && !url && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('feed.resetHint')}
            </Typography>
          )}
        </>
      )}
      <ConfirmDialog open={confirmOff} title={t('feed.turnOffTitle')} confirmLabel={t('feed.turnOff')} destructive onConfirm={turnOff} onCancel={() => setConfirmOff(false)}>
        <DialogContentText>{t('feed.turnOffText')}</DialogContentText>
      </ConfirmDialog>
    </Paper>
  );
}
