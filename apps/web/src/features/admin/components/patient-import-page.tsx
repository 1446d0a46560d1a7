import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import type { PatientImport } from '@healthbook/shared/contracts/people';
import { PATIENT_IMPORT_COLUMNS, PATIENT_IMPORT_MAX_BYTES } from '@healthbook/shared/people';
import { HubPage } from '../../../components/hub-page';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { usePatientImport, useSendPatientImport, useUploadPatientFile } from '../api/patient-imports';

/**
 * Patients invited in bulk: the administrator uploads a CSV file, sees each row's problems
 * before anything is sent, then starts the sending and follows its progress (the job sends the
 * invitations; the page asks for the progress every second).
 */
export default function PatientImportPage() {
  const { t } = useTranslation('people');
  const { clientId } = useOrganizationContext();
  const [searchParams] = useSearchParams();
  const org = searchParams.get('org') ? Number(searchParams.get('org')) : undefined;
  const upload = useUploadPatientFile();
  const send = useSendPatientImport();
  const [importId, setImportId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const current = usePatientImport(importId, { problems: true, page });
  const [failure, setFailure] = useState<string | null>(null);
  const inputId = useId();
  const helpId = useId();
  const data: PatientImport | undefined = current.data ?? upload.data;

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setFailure(null);
    setImportId(null);
    setPage(1);
    if (file.size > PATIENT_IMPORT_MAX_BYTES) return setFailure(t('import.tooLarge'));
    try {
      const created = await upload.mutateAsync({ file, org });
      setImportId(created.id);
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback: t('actionFailed') }));
    }
  };
  const start = async () => {
    if (!data) return;
    setFailure(null);
    try {
      await send.mutateAsync(data.id);
      await current.refetch();
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback: t('actionFailed') }));
    }
  };

  const handled = data ? data.counts.sent + data.counts.failed + (data.status === 'preview' ? 0 : data.counts.skipped) : 0;
  const toSend = data ? data.counts.sent + data.counts.failed + data.counts.ready + data.counts.sending : 0;
  const progress = data && toSend > 0 ? Math.round(((data.counts.sent + data.counts.failed) / toSend) * 100) : 0;

  return (
    <HubPage pageTitle={t('import.pageTitle')} intro={t('import.intro')} maxWidth={1100} back={{ to: paths.adminHome(clientId), label: t('import.back') }}>
      <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
        <Typography id={helpId} variant="body2" sx={{ mb: 1 }}>
          {t('import.columns')}
        </Typography>
        <Box component="code" sx={{ display: 'block', p: 1, mb: 2, bgcolor: 'action.hover', borderRadius: 1, wordBreak: 'break-all', fontSize: 14 }}>
          {PATIENT_IMPORT_COLUMNS.join(',')}
          <br />
          Maria,Papadopoulou,1984-03-17,female,maria@example.com,el
        </Box>
        <Button component="label" htmlFor={inputId} variant="contained" startIcon={<UploadFile />} disabled={upload.isPending || data?.status === 'sending'}>
          {t('import.choose')}
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={helpId}
            hidden
            onChange={(e) => {
              void choose(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </Button>
        {upload.isPending && <LinearProgress sx={{ mt: 2 }} aria-label={t('import.reading')} />}
      </Paper>

      {failure && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}

      {data && (
        <Stack spacing={2}>
          <Typography variant="h2" sx={{ fontSize: '1.4rem' }}>
            {t('import.fileTitle', { file: data.file_name, total: data.total })}
          </Typography>
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }} aria-label={t('import.summary')}>
            <Chip variant="outlined" sx={{ borderColor: 'success.main', borderWidth: 2 }} label={t('import.counts.ready', { count: data.counts.ready + data.counts.sending })} />
            <Chip variant="outlined" sx={{ borderColor: 'error.main', borderWidth: 2 }} label={t('import.counts.invalid', { count: data.counts.invalid })} />
            <Chip variant="outlined" label={t('import.counts.skipped', { count: data.counts.skipped })} />
            {data.status !== 'preview' && <Chip variant="outlined" sx={{ borderColor: 'primary.main', borderWidth: 2 }} label={t('import.counts.sent', { count: data.counts.sent })} />}
            {data.counts.failed > 0 && <Chip variant="outlined" sx={{ borderColor: 'error.main', borderWidth: 2 }} label={t('import.counts.failed', { count: data.counts.failed })} />}
          </Stack>

          {data.status === 'preview' && (
            <Alert
              severity={data.counts.ready > 0 ? 'info' : 'warning'}
              action={
                data.counts.ready > 0 ? (
                  <Button color="inherit" variant="outlined" size="small" onClick={() => void start()} disabled={send.isPending}>
                    {t('import.send', { count: data.counts.ready })}
                  </Button>
                ) : undefined
              }
            >
              {data.counts.ready > 0 ? t('import.previewNote') : t('import.nothingToSend')}
            </Alert>
          )}
          {data.status !== 'preview' && (
            <Box role="status" aria-live="polite">
              <Typography sx={{ mb: 1 }}>{data.status === 'done' ? t('import.done', { sent: data.counts.sent, skipped: data.counts.skipped, failed: data.counts.failed }) : t('import.sending', { done: handled, total: toSend })}</Typography>
              <LinearProgress variant="determinate" value={data.status === 'done' ? 100 : progress} aria-label={t('import.progress')} />
            </Box>
          )}

          {data.rows_count > 0 && (
            <Paper variant="outlined">
              <TableContainer>
                <Table size="small" aria-label={t('import.problemsTable')}>
                  <TableHead>
                    <TableRow>
                      <TableCell>{t('import.line')}</TableCell>
                      <TableCell>{t('columns.name')}</TableCell>
                      <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('columns.email')}</TableCell>
                      <TableCell>{t('import.problems')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.rows.map((row) => (
                      <TableRow key={row.row}>
                        <TableCell>{row.row}</TableCell>
                        <TableCell>{`${row.first_name} ${row.last_name}`.trim() || '—'}</TableCell>
                        <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, wordBreak: 'break-all' }}>{row.email || '—'}</TableCell>
                        <TableCell>
                          {row.status === 'failed' && <Typography variant="body2">{t('import.failedRow')}</Typography>}
                          {row.problems.map((p) => (
                            <Typography key={`${p.field}-${p.code}`} variant="body2" color={p.code === 'already_in_organization' ? 'text.secondary' : 'error'}>
                              {t(`import.problem.${p.code}`, { field: t(`import.field.${p.field}`) })}
                            </Typography>
                          ))}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              <TablePagination
                component="div"
                count={data.rows_count}
                page={page - 1}
                rowsPerPage={50}
                rowsPerPageOptions={[50]}
                onPageChange={(_e, p) => setPage(p + 1)}
                labelDisplayedRows={({ from, to, count }) => t('displayedRows', { from, to, count })}
                getItemAriaLabel={(type) => t(`pageButton.${type}`)}
              />
            </Paper>
          )}
          {data.status === 'done' && (
            <Button component={RouterLink} to={paths.adminHome(clientId)} variant="outlined" sx={{ alignSelf: 'flex-start' }}>
              {t('import.back')}
            </Button>
          )}
        </Stack>
      )}
    </HubPage>
  );
}
