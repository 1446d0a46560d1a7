import { useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { ApiError } from '../lib/api-client';
import { PageTimeout } from './page-timeout';

/** A page load that failed for the network (chunk, timeout, server unreachable) gets the page-timeout screen. */
function isLoadFailure(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500;
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'LoadTimeoutError' ||
    error.name === 'TypeError' || // fetch: network failure; dynamic import: failed to fetch module
    /Failed to fetch|dynamically imported module|Importing a module script failed|Load failed/i.test(error.message)
  );
}

export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isLoadFailure(error)) return <PageTimeout />;
  return (
    <Box component="main" sx={{ maxWidth: 560, mx: 'auto', my: 8, px: 2, textAlign: 'center' }}>
      <Typography variant="h1" gutterBottom>
        {t('error.title')}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t('error.text')}</Typography>
      <Button variant="contained" onClick={() => window.location.reload()}>
        {t('error.reload')}
      </Button>
    </Box>
  );
}
