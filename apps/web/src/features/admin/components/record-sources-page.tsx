import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import DialogContentText from '@mui/material/DialogContentText';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import type { FhirSource } from '@healthbook/shared/contracts/sources';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { FlashMessage, type Flash } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { TermList } from '../../../components/term-list';
import { applyServerErrors } from '../../../lib/form-errors';
import { paths } from '../../../lib/paths';
import { userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useDeleteFhirSource } from '../api/delete-fhir-source';
import { useFhirSources } from '../api/get-fhir-sources';
import { useSaveFhirSource } from '../api/save-fhir-source';
import { OrganizationPicker, useChosenOrganization } from './organization-picker';
import { RedirectUri } from './redirect-uri';
import { SourceFormDialog } from './source-form-dialog';

/**
 * Administration → Record sources (issue 28): the SMART on FHIR systems the organisation's
 * patients may connect to bring their records in. Each is checked before it is kept; the
 * redirect URI to register with them is shown with a copy button.
 */
export default function RecordSourcesPage() {
  const { t, i18n } = useTranslation('admin');
  const organization = useChosenOrganization();
  const organizationId = organization.chosen.org;
  const sources = useFhirSources(organizationId);
  const save = useSaveFhirSource();
  const remove = useDeleteFhirSource();
  // null: closed; 'new': adding; a source: changing it.
  const [editing, setEditing] = useState<FhirSource | 'new' | null>(null);
  const [removing, setRemoving] = useState<FhirSource | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [message, setMessage] = useState<Flash | null>(null);
  const when = zonedFormat(i18n.language, userTimeZone());
  const rows = sources.data ?? [];
  // Every source of an organisation answers the same address; before the first, the browser's own.
  const redirectUri = rows[0]?.redirect_uri ?? `${window.location.origin}${paths.sourceCallback(organization.chosen.name)}`;

  const toggle = async (source: FhirSource, enabled: boolean) => {
    setFailure(null);
    try {
      await save.mutateAsync({ id: source.id, body: { enabled } });
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback: t('sources.actionFailed') }));
    }
  };
  const confirmRemove = async () => {
    const source = removing;
    if (!source) return;
    setRemoving(null);
    setFailure(null);
    try {
      await remove.mutateAsync(source.id);
      setMessage({ severity: 'success', text: t('sources.delete.done', { name: source.name }) });
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback: t('sources.actionFailed') }));
    }
  };

  const clientType = (source: FhirSource) => (source.confidential ? t('sources.clientType.confidential') : t('sources.clientType.public'));
  const enabledSwitch = (source: FhirSource) => (
    <Switch
      checked={source.enabled}
      onChange={(e) => void toggle(source, e.target.checked)}
      disabled={save.isPending}
      slotProps={{ input: { 'aria-label': t('sources.enabledFor', { name: source.name }) } }}
    />
  );
  const actions = (source: FhirSource) => (
    <Box sx={{ display: 'flex', gap: 0.5, justifyContent: 'flex-end' }}>
      <IconButton onClick={() => setEditing(source)} aria-label={t('sources.edit', { name: source.name })}>
        <Edit />
      </IconButton>
      <IconButton color="error" onClick={() => setRemoving(source)} aria-label={t('sources.delete.button', { name: source.name })}>
        <DeleteOutline />
      </IconButton>
    </Box>
  );

  return (
    <HubPage pageTitle={t('sources.pageTitle')} intro={t('sources.intro')} maxWidth={1200}>
      <OrganizationPicker state={organization} />
      <Box sx={{ mb: 3 }}>
        <RedirectUri value={redirectUri} />
      </Box>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="h2">{t('sources.listTitle')}</Typography>
        <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
          {t('sources.add')}
        </Button>
      </Box>
      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      {sources.isPending && <Skeleton variant="rounded" height={160} />}
      {sources.isError && <Alert severity="error">{t('sources.loadFailed')}</Alert>}
      {sources.isSuccess && rows.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3, borderRadius: 2 }}>
          <Typography>{t('sources.none')}</Typography>
        </Paper>
      )}
      {rows.length > 0 && (
        // A table from laptop width; narrower, each source is a card of its own.
        <TableContainer component={Paper} variant="outlined" sx={{ borderRadius: 2, display: { xs: 'none', lg: 'block' } }}>
          <Table aria-label={t('sources.listTitle')}>
            <TableHead>
              <TableRow>
                <TableCell scope="col">{t('sources.columns.name')}</TableCell>
                <TableCell scope="col">{t('sources.columns.baseUrl')}</TableCell>
                <TableCell scope="col">{t('sources.columns.clientType')}</TableCell>
                <TableCell scope="col">{t('sources.columns.enabled')}</TableCell>
                <TableCell scope="col" align="right">
                  {t('sources.columns.patients')}
                </TableCell>
                <TableCell scope="col">{t('sources.columns.checkedAt')}</TableCell>
                <TableCell scope="col" align="right">
                  {t('sources.columns.actions')}
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((source) => (
                <TableRow key={source.id}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600 }} translate="no">
                    {source.name}
                  </TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere', maxWidth: 280 }} translate="no">
                    {source.fhir_base_url}
                  </TableCell>
                  <TableCell>{clientType(source)}</TableCell>
                  <TableCell>{enabledSwitch(source)}</TableCell>
                  <TableCell align="right">{source.connections}</TableCell>
                  <TableCell>{when.dateTime(source.checked_at)}</TableCell>
                  <TableCell align="right">{actions(source)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {rows.length > 0 && (
        <Stack component="ul" aria-label={t('sources.listTitle')} spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0, display: { xs: 'flex', lg: 'none' } }}>
          {rows.map((source) => (
            <Paper component="li" key={source.id} variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography sx={{ fontWeight: 600, flex: 1, overflowWrap: 'anywhere' }} translate="no">
                  {source.name}
                </Typography>
                {actions(source)}
              </Box>
              <TermList
                sx={{ mt: 1 }}
                terms={[
                  { key: 'url', label: t('sources.columns.baseUrl'), value: <span translate="no">{source.fhir_base_url}</span> },
                  { key: 'type', label: t('sources.columns.clientType'), value: clientType(source) },
                  { key: 'patients', label: t('sources.columns.patients'), value: source.connections },
                  { key: 'checked', label: t('sources.columns.checkedAt'), value: when.dateTime(source.checked_at) },
                ]}
              />
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
                <Typography variant="body2" color="text.secondary">
                  {t('sources.columns.enabled')}
                </Typography>
                {enabledSwitch(source)}
              </Box>
            </Paper>
          ))}
        </Stack>
      )}

      {editing !== null && (
        <SourceFormDialog
          open
          source={editing === 'new' ? null : editing}
          organizationId={organizationId}
          redirectUri={redirectUri}
          onClose={() => setEditing(null)}
          onSaved={(source, created) => {
            setEditing(null);
            setMessage({ severity: 'success', text: t(created ? 'sources.form.created' : 'sources.form.saved', { name: source.name }) });
          }}
        />
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t('sources.delete.title', { name: removing?.name ?? '' })}
        confirmLabel={t('sources.delete.confirm')}
        destructive
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        <DialogContentText>{t('sources.delete.text', { count: removing?.connections ?? 0, name: removing?.name ?? '' })}</DialogContentText>
      </ConfirmDialog>
      <FlashMessage message={message} onClose={() => setMessage(null)} />
    </HubPage>
  );
}
