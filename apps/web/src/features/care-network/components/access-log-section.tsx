import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AccessLogEntry } from '@healthbook/shared/contracts/care-network';
import { DelayedLoader } from '../../../components/delayed-loader';
import { ACCESS_LOG_PAGE_SIZE, useAccessLog } from '../api/access-log';
import { lineWhen } from '../format';

/** "Who saw my record": every access by someone else (care network, share recipients), newest first, a page at a time. */
export function AccessLogSection() {
  const { t, i18n } = useTranslation('careNetwork');
  const language = i18n.resolvedLanguage ?? 'en';
  const [page, setPage] = useState(1);
  const log = useAccessLog(page, language);
  const headingId = useId();

  const body = () => {
    if (log.isPending) return <DelayedLoader />;
    if (log.isError)
      return (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void log.refetch()}>{t('retry')}</Button>}>
          {t('loadFailed')}
        </Alert>
      );
    if (log.data.count === 0)
      return (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <Typography>{t('log.empty')}</Typography>
        </Paper>
      );
    const pages = Math.ceil(log.data.count / ACCESS_LOG_PAGE_SIZE);
    return (
      <>
        <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
          <Stack component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {log.data.results.map((entry, index) => (
              <LogRow key={`${entry.at}-${index}`} entry={entry} language={language} />
            ))}
          </Stack>
        </Paper>
        {pages > 1 && (
          <Pagination
            sx={{ mt: 2, display: 'flex', justifyContent: 'center' }}
            count={pages}
            page={page}
            onChange={(_, next) => setPage(next)}
            getItemAriaLabel={(type, n) => (type === 'page' ? t('log.page', { page: n }) : t(`log.${type}`))}
          />
        )}
      </>
    );
  };

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 5 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('log.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('log.intro')}
      </Typography>
      {body()}
    </Box>
  );
}

function LogRow({ entry, language }: { entry: AccessLogEntry; language: string }) {
  const { t } = useTranslation('careNetwork');
  return (
    <Box component="li" sx={{ px: { xs: 2, sm: 2.5 }, py: 1.5, '& + &': { borderTop: 1, borderColor: 'divider' }, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '11rem 1fr' }, columnGap: 2, rowGap: 0.25 }}>
      <Typography variant="body2" color="text.secondary">
        <Box component="time" dateTime={entry.at}>
          {lineWhen(entry, language)}
        </Box>
      </Typography>
      <Box sx={{ minWidth: 0 }}>
        <Typography sx={{ overflowWrap: 'anywhere' }}>{entry.text}</Typography>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.5 }}>
          {entry.detail && (
            <Typography variant="body2" color="text.secondary">
              {entry.detail}
            </Typography>
          )}
          <Chip size="small" variant="outlined" label={t(`log.channel.${entry.via}`)} />
          {entry.outcome === 'denied' && <Chip size="small" color="error" variant="outlined" label={t('log.refused')} />}
        </Box>
      </Box>
    </Box>
  );
}
