import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import LinkOff from '@mui/icons-material/LinkOff';
import Sync from '@mui/icons-material/Sync';
import type { SourceConnection, SourceConnectionStatusKey, SyncRun } from '@healthbook/shared/contracts/sources';
import { TermList } from '../../../components/term-list';
import { userTimeZone, zonedFormat } from '../../../lib/zoned-time';

/** The chip of each status: pending and syncing read alike ("Syncing…"). */
const CHIPS: Record<SourceConnectionStatusKey, { label: string; color: 'default' | 'info' | 'success' | 'warning' | 'error' }> = {
  pending: { label: 'syncing', color: 'info' },
  syncing: { label: 'syncing', color: 'info' },
  up_to_date: { label: 'upToDate', color: 'success' },
  needs_reconnect: { label: 'needsReconnect', color: 'warning' },
  failed: { label: 'failed', color: 'error' },
  disconnected: { label: 'disconnected', color: 'default' },
};

export const isSyncing = (connection: Pick<SourceConnection, 'status'>) => connection.status === 'pending' || connection.status === 'syncing';

export interface ConnectionCardProps {
  connection: SourceConnection;
  onSync: () => void;
  /** Connect again (a new authorisation at the provider). */
  onReconnect: () => void;
  onDisconnect: () => void;
  /** An action of this card is under way: its buttons wait. */
  busy?: boolean;
  /** Read-only access to the viewed record: nothing to press. */
  canWrite?: boolean;
}

/** One connected provider: its status, the last sync and what it did, Sync now and Disconnect. */
export function ConnectionCard({ connection, onSync, onReconnect, onDisconnect, busy = false, canWrite = true }: ConnectionCardProps) {
  const { t, i18n } = useTranslation('sources');
  const titleId = useId();
  const chip = CHIPS[connection.status];
  const running = isSyncing(connection);
  const when = zonedFormat(i18n.language, userTimeZone());

  return (
    <Paper component="article" variant="outlined" aria-labelledby={titleId} sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', mb: 1 }}>
        <Typography id={titleId} variant="h3" component="h3" sx={{ fontSize: '1.15rem', fontWeight: 600, overflowWrap: 'anywhere' }} translate="no">
          {connection.source_name}
        </Typography>
        <Chip size="small" color={chip.color} label={t(`status.${chip.label}`)} sx={{ fontWeight: 600 }} />
      </Box>
      {running && <LinearProgress aria-label={t('status.syncingLabel', { name: connection.source_name })} sx={{ mb: 1.5, borderRadius: 1 }} />}
      {connection.status === 'needs_reconnect' && (
        <Alert
          severity="warning"
          sx={{ mb: 1.5 }}
          action={
            canWrite ? (
              <Button color="inherit" size="small" onClick={onReconnect} disabled={busy}>
                {t('actions.reconnect')}
              </Button>
            ) : undefined
          }
        >
          {connection.problem ?? t('status.needsReconnectText')}
        </Alert>
      )}
      {connection.status === 'failed' && (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {connection.problem ?? t('status.failedText')}
        </Alert>
      )}
      <TermList
        terms={[
          { key: 'synced', label: t('card.lastSynced'), value: connection.last_synced_at ? when.dateTime(connection.last_synced_at) : t('card.never') },
          { key: 'records', label: t('card.records'), value: t('card.recordCount', { count: connection.records }) },
          ...(connection.last_run ? [{ key: 'run', label: t('card.lastRun'), value: runSummary(t, connection.last_run) }] : []),
        ]}
      />
      {connection.last_run && <RunDetails run={connection.last_run} />}
      {canWrite && (
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 2, flexWrap: 'wrap' }}>
          <Button variant="outlined" startIcon={<Sync />} onClick={onSync} disabled={busy || running || connection.status === 'needs_reconnect'}>
            {t('actions.syncNow')}
          </Button>
          <Button color="error" startIcon={<LinkOff />} onClick={onDisconnect} disabled={busy}>
            {t('actions.disconnect')}
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

type T = (key: string, options?: Record<string, unknown>) => string;

/** "3 added, 1 updated, 0 deleted, 12 unchanged". */
const runSummary = (t: T, run: SyncRun) =>
  [t('run.added', { count: run.added }), t('run.updated', { count: run.updated }), t('run.deleted', { count: run.deleted }), t('run.unchanged', { count: run.unchanged })].join(t('run.separator'));

/** What the last sync left out: the types skipped (and why) and those the provider refused; folded until asked. */
function RunDetails({ run }: { run: SyncRun }) {
  const { t, i18n } = useTranslation('sources');
  const [open, setOpen] = useState(false);
  const id = useId();
  const when = zonedFormat(i18n.language, userTimeZone());
  return (
    <Box sx={{ mt: 1 }}>
      <Button size="small" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={id} endIcon={open ? <ExpandLess /> : <ExpandMore />} sx={{ ml: -1 }}>
        {t('run.details')}
      </Button>
      <Collapse in={open} id={id}>
        <Box sx={{ pt: 1, pl: { sm: 1 } }}>
          <Typography variant="body2">
            {t(run.full ? 'run.full' : 'run.incremental', { date: when.dateTime(run.finished_at) })}
            {run.documents > 0 && ` ${t('run.documents', { count: run.documents })}`}
          </Typography>
          <Typography variant="body2" sx={{ fontWeight: 600, mt: 1 }}>
            {t('run.skippedTitle')}
          </Typography>
          {run.skipped.length === 0 ? (
            <Typography variant="body2">{t('run.noneSkipped')}</Typography>
          ) : (
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {run.skipped.map((s) => (
                <Typography component="li" variant="body2" key={`${s.type}-${s.reason}`}>
                  <span translate="no">{s.type}</span> {t('run.skipped', { count: s.count, reason: s.reason })}
                </Typography>
              ))}
            </Box>
          )}
          <Typography variant="body2" sx={{ fontWeight: 600, mt: 1 }}>
            {t('run.refusedTitle')}
          </Typography>
          {run.refused.length === 0 ? (
            <Typography variant="body2">{t('run.noneRefused')}</Typography>
          ) : (
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {run.refused.map((r) => (
                <Typography component="li" variant="body2" key={r.type}>
                  <span translate="no">{r.type}</span> {t('run.refused', { status: r.status })}
                </Typography>
              ))}
            </Box>
          )}
        </Box>
      </Collapse>
    </Box>
  );
}
