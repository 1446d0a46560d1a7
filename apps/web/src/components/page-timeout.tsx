import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { api } from '../lib/api-client';
import { DelayedLoader } from './delayed-loader';

export type Ping = () => Promise<boolean>;
const defaultPing: Ping = () => api.head('/api/ping').catch(() => false);

/**
 * Shown when a page fails to load: checks connectivity (HEAD /api/ping); if the server answers,
 * the page is reloaded, otherwise the offline message shows, with a retry.
 */
export function PageTimeout({ ping = defaultPing, reload = () => window.location.reload() }: { ping?: Ping; reload?: () => void }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'checking' | 'offline'>('checking');

  useEffect(() => {
    if (state !== 'checking') return;
    let cancelled = false;
    void ping().then((online) => {
      if (cancelled) return;
      if (online) reload();
      else setState('offline');
    });
    return () => {
      cancelled = true;
    };
  }, [state, ping, reload]);

  if (state === 'checking') return <DelayedLoader label={t('app.loading')} />;
  return (
    <Box component="section" sx={{ maxWidth: 560, mx: 'auto', my: 8, px: 2, textAlign: 'center' }}>
      <title>{t('pageTimeout.pageTitle')}</title>
      <Typography variant="h1" gutterBottom>
        {t('pageTimeout.title')}
      </Typography>
      <Typography role="alert" sx={{ mb: 3 }}>
        {t('pageTimeout.text')}
      </Typography>
      <Button variant="contained" onClick={() => setState('checking')}>
        {t('pageTimeout.retry')}
      </Button>
    </Box>
  );
}
