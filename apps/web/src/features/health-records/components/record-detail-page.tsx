import { useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import LockOutlined from '@mui/icons-material/LockOutlined';
import ShowChart from '@mui/icons-material/ShowChart';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import type { CategoryDefinition } from '@healthbook/shared/records/fields';
import { readableFields } from '@healthbook/shared/records/format';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { flash, FlashMessage } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { ShareLinkButton } from '../../../components/share-link-button';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/auth';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useDeleteRecord } from '../api/delete-record';
import { useRecord } from '../api/get-record';
import { categoryName, recordTitle, sharedT, useRecordText } from '../../../lib/record-text';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';
import { AttachmentsPanel } from './attachments-panel';
import { HistoryPanel } from './history-panel';
import { ExportButton } from './export-dialog';
import { LabFlagChip } from './lab-flag-chip';
import { ProvenanceChip, ProvenanceDeleteNote } from './provenance-chip';

/** /health-record/:category/:id — a record: its fields, its attachments and its history; edit and delete. */
export default function RecordDetailPage() {
  const { category: key = '', id = '' } = useParams();
  const category = categoryDefinition(key);
  const { clientId } = useOrganizationContext();
  const recordId = /^[0-9]{1,10}$/.test(id) ? Number(id) : null;
  if (!category || recordId === null) return <Navigate to={paths.notFound(clientId)} replace />;
  return <RecordDetail key={`${category.key}-${recordId}`} category={category} id={recordId} />;
}

function RecordDetail({ category, id }: { category: CategoryDefinition; id: number }) {
  const { clientId } = useOrganizationContext();
  const { t, locale } = useRecordText();
  const record = useRecord(category.key, id);
  const one = categoryName(t, category.key);

  return (
    <HubPage
      pageTitle={record.data ? recordTitle(t, locale, record.data) : one}
      maxWidth={960}
      back={{ to: paths.recordList(clientId, category.key), label: categoryName(t, category.key, true) }}
    >
      {record.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={one} />
        </Box>
      )}
      {record.isError && <Alert severity={record.error instanceof ApiError && record.error.status === 404 ? 'info' : 'error'}>{record.error instanceof ApiError && record.error.status === 404 ? t('healthRecords:detail.notFound') : t('healthRecords:loadFailed')}</Alert>}
      {record.data && <RecordBody category={category} record={record.data} />}
      <FlashMessage />
    </HubPage>
  );
}

function RecordBody({ category, record }: { category: CategoryDefinition; record: HealthRecord }) {
  const { clientId } = useOrganizationContext();
  const { t, locale } = useRecordText();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const imperial = user?.imperial_units === true;
  const remove = useDeleteRecord();
  const { canWrite, readOnly } = useRecordAccess();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const title = recordTitle(t, locale, record);
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  // A record a connected source brought goes when it is disconnected with its records, unless the source no longer has it.
  const deletable = !record.provenance || record.provenance.deleted_at !== null;

  // The fields with a value, as the shared page and the PDF show them: a flag's "No" is a value too.
  const rows = readableFields(sharedT(t), locale, category, record, imperial);

  const confirmDelete = async () => {
    setConfirming(false);
    try {
      await remove.mutateAsync({ category: category.key, id: record.id });
      await navigate(paths.recordList(clientId, category.key), { replace: true, state: flash(t('records:messages.deleted')) });
    } catch {
      setFailure(t('healthRecords:detail.deleteFailed'));
    }
  };

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}>
        <Chip label={categoryName(t, category.key)} size="small" />
        {record.private && <Chip size="small" variant="outlined" color="secondary" icon={<LockOutlined />} label={t('healthRecords:private')} title={t('healthRecords:privateHint')} />}
        {category.key === 'lab' && <LabFlagChip record={record} />}
        {record.provenance && <ProvenanceChip provenance={record.provenance} />}
        <Box sx={{ flex: 1 }} />
        {category.key === 'lab' && typeof record.test === 'string' && typeof record.result === 'number' && (
          <Button component={RouterLink} to={paths.labTrend(clientId, record.test)} variant="outlined" startIcon={<ShowChart />}>
            {t('healthRecords:labTrend.open')}
          </Button>
        )}
        {!record.private && <ShareLinkButton query={{ category: category.key, record: record.id }} />}
        {canWrite && (
          <Button component={RouterLink} to={paths.recordEdit(clientId, category.key, record.id)} variant="contained" startIcon={<Edit />}>
            {t('healthRecords:detail.edit')}
          </Button>
        )}
        <ExportButton categories={[category.key]} recordIds={[record.id]} includePrivate={record.private} />
        {canWrite && deletable && (
          <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setConfirming(true)} disabled={remove.isPending}>
            {t('healthRecords:detail.delete')}
          </Button>
        )}
      </Stack>
      {readOnly && <ReadOnlyNotice sx={{ mb: 2 }} />}
      {canWrite && record.provenance && !deletable && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          <ProvenanceDeleteNote provenance={record.provenance} />
        </Typography>
      )}
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}

      <Paper variant="outlined" component="section" aria-labelledby="record-details" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 }, mb: 3 }}>
        <Typography id="record-details" variant="h2" sx={{ mb: 1.5 }}>
          {t('healthRecords:detail.details')}
        </Typography>
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(160px, 35%) 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 } }}>
          {rows.map(({ name, label, value }) => (
            <Box key={name} sx={{ display: 'contents' }}>
              <Typography component="dt" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
                {label}
              </Typography>
              <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {t('healthRecords:detail.added', { date: dateTime.format(new Date(record.created_at)) })}
          {record.updated_at !== record.created_at && ` · ${t('healthRecords:detail.updated', { date: dateTime.format(new Date(record.updated_at)) })}`}
        </Typography>
      </Paper>

      <AttachmentsPanel category={category.key} record={record} />
      <HistoryPanel category={category} recordId={record.id} />

      <ConfirmDialog
        open={confirming}
        title={t('healthRecords:detail.deleteTitle')}
        confirmLabel={t('healthRecords:detail.deleteConfirm')}
        destructive
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      >
        <DialogContentText>{t('healthRecords:detail.deleteText', { title })}</DialogContentText>
      </ConfirmDialog>
    </>
  );
}
