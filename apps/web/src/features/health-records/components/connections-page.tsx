import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import AddLink from '@mui/icons-material/AddLink';
import CheckCircle from '@mui/icons-material/CheckCircle';
import type { SourceConnection } from '@healthbook/shared/contracts/sources';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { FlashMessage, type Flash } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { ReadOnlyNotice } from '../../../components/read-only-notice';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { queryKeys } from '../../../lib/query-keys';
import { useRecordAccess } from '../../../lib/record-access';
import { useConnectSource } from '../api/connect-source';
import { useDisconnectSource } from '../api/disconnect-source';
import { syncing, useSources } from '../api/get-sources';
import { useSyncConnection } from '../api/sync-connection';
import { ConnectionCard } from './connection-card';

/** /health-record/connections — the providers the organisation offers (Connect), and the patient's connections to them. */
export default function ConnectionsPage() {
  const { t, i18n } = useTranslation(['sources', 'healthRecords']);
  const { clientId } = useOrganizationContext();
  const { canWrite, readOnly } = useRecordAccess();
  const queryClient = useQueryClient();
  const sources = useSources(i18n.language);
  const connect = useConnectSource();
  const sync = useSyncConnection();
  const disconnect = useDisconnectSource();
  const [failure, setFailure] = useState<string | null>(null);
  const [message, setMessage] = useState<Flash | null>(null);
  const [leaving, setLeaving] = useState<SourceConnection | null>(null);
  const [removeRecords, setRemoveRecords] = useState(false);

  // A sync that ends brought records: the lists and the summary are read again.
  const running = syncing(sources.data);
  const wasRunning = useRef(running);
  useEffect(() => {
    if (wasRunning.current && !running) void queryClient.invalidateQueries({ queryKey: queryKeys.records.all });
    wasRunning.current = running;
  }, [running, queryClient]);

  const fallback = t('sources:errors.actionFailed');
  const begin = async (sourceId: number) => {
    setFailure(null);
    try {
      const { authorize_url } = await connect.mutateAsync(sourceId);
      // The provider's sign-in and consent; it sends the browser back to the callback page.
      window.location.assign(authorize_url);
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback }));
    }
  };
  const syncNow = async (connection: SourceConnection) => {
    setFailure(null);
    try {
      await sync.mutateAsync(connection.id);
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback }));
    }
  };
  const confirmDisconnect = async () => {
    const connection = leaving;
    if (!connection) return;
    setLeaving(null);
    setFailure(null);
    try {
      await disconnect.mutateAsync({ id: connection.id, removeRecords });
      setMessage({ severity: 'success', text: t(removeRecords ? 'sources:disconnect.doneRemoved' : 'sources:disconnect.done', { name: connection.source_name }) });
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback }));
    }
  };

  const data = sources.data;
  const busy = connect.isPending || sync.isPending || disconnect.isPending;

  return (
    <HubPage pageTitle={t('sources:page.title')} intro={t('sources:page.intro')} maxWidth={960} back={{ to: paths.healthRecords(clientId), label: t('healthRecords:backToOverview') }}>
      {readOnly && <ReadOnlyNotice sx={{ mb: 2 }} />}
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      {sources.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('sources:page.loading')} />
        </Box>
      )}
      {sources.isError && (
        <Alert severity="error" action={<Button onClick={() => void sources.refetch()}>{t('healthRecords:retry')}</Button>}>
          {t('sources:page.loadFailed')}
        </Alert>
      )}
      {data && (
        <Stack spacing={4}>
          <Box component="section" aria-labelledby="sources-offered">
            <Typography id="sources-offered" variant="h2" sx={{ mb: 1.5 }}>
              {t('sources:offered.title')}
            </Typography>
            {data.sources.length === 0 ? (
              <Paper variant="outlined" sx={{ p: 3, borderRadius: 3 }}>
                <Typography>{t('sources:offered.none')}</Typography>
              </Paper>
            ) : (
              <Paper component="ul" variant="outlined" sx={{ listStyle: 'none', m: 0, p: 0, borderRadius: 3 }}>
                {data.sources.map((source, index) => (
                    <Box
                      component="li"
                      key={source.id}
                      sx={{ display: 'flex', alignItems: 'center', gap: 2, px: 2.5, py: 1.5, flexWrap: 'wrap', borderTop: index === 0 ? 'none' : 1, borderColor: 'divider' }}
                    >
                      <Typography sx={{ fontWeight: 600, flex: '1 1 200px', overflowWrap: 'anywhere' }} translate="no">
                        {source.name}
                      </Typography>
                      {source.connected ? (
                        <Chip icon={<CheckCircle />} color="success" variant="outlined" label={t('sources:offered.connected')} />
                      ) : (
                        canWrite && (
                          <Button variant="contained" startIcon={<AddLink />} onClick={() => void begin(source.id)} disabled={busy} aria-label={t('sources:offered.connectTo', { name: source.name })}>
                            {t('sources:offered.connect')}
                          </Button>
                        )
                      )}
                    </Box>
                ))}
              </Paper>
            )}
          </Box>

          <Box component="section" aria-labelledby="sources-connected">
            <Typography id="sources-connected" variant="h2" sx={{ mb: 1.5 }}>
              {t('sources:connected.title')}
            </Typography>
            {data.connections.length === 0 ? (
              <Paper variant="outlined" sx={{ p: 3, borderRadius: 3 }}>
                <Typography>{t('sources:connected.none')}</Typography>
              </Paper>
            ) : (
              <Stack spacing={2}>
                {data.connections.map((connection) => (
                  <ConnectionCard
                    key={connection.id}
                    connection={connection}
                    canWrite={canWrite}
                    busy={busy}
                    onSync={() => void syncNow(connection)}
                    onReconnect={() => void begin(connection.source_id)}
                    onDisconnect={() => {
                      setRemoveRecords(false);
                      setLeaving(connection);
                    }}
                  />
                ))}
              </Stack>
            )}
          </Box>
        </Stack>
      )}

      <ConfirmDialog
        open={leaving !== null}
        title={t('sources:disconnect.title', { name: leaving?.source_name ?? '' })}
        confirmLabel={t('sources:disconnect.confirm')}
        destructive
        onConfirm={() => void confirmDisconnect()}
        onCancel={() => setLeaving(null)}
      >
        <DialogContentText sx={{ mb: 1 }}>{t('sources:disconnect.text', { name: leaving?.source_name ?? '' })}</DialogContentText>
        {leaving && leaving.records > 0 && (
          <FormControlLabel
            control={<Checkbox checked={removeRecords} onChange={(e) => setRemoveRecords(e.target.checked)} />}
            label={t('sources:disconnect.removeRecords', { count: leaving.records })}
          />
        )}
      </ConfirmDialog>
      <FlashMessage message={message} onClose={() => setMessage(null)} />
    </HubPage>
  );
}
