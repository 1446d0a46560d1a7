import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { AVAILABILITY_HORIZON_DAYS, CANCELLATION_NOTES_MAX } from '@healthbook/shared/appointments';
import type { AppointmentDetail } from '@healthbook/shared/contracts/appointments';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { FlashMessage, type Flash } from '../../../components/flash-message';
import { visuallyHidden } from '../../../components/visually-hidden';
import { HubPage } from '../../../components/hub-page';
import { VideoVisitButton } from '../../../components/video-visit-button';
import { failureText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { addDays, todayIn, userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useCancelAppointment } from '../api/cancel-appointment';
import { useProviderAppointments } from '../api/list-provider-appointments';

const STATUSES = ['all', 'booked', 'cancelled'] as const;
type StatusFilter = (typeof STATUSES)[number];

/**
 * /provider/appointments — the provider's bookings and cancellations from today on (date and
 * time in the reader's zone, patient, reason, status); a booking still to come can be cancelled,
 * with notes for the patient, after "Are you sure you want to cancel this meeting?".
 */
export default function AppointmentsPage() {
  const { t, i18n } = useTranslation('provider');
  const { clientId } = useOrganizationContext();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [params, setParams] = useSearchParams();
  const status: StatusFilter = (STATUSES as readonly string[]).includes(params.get('status') ?? '') ? (params.get('status') as StatusFilter) : 'all';
  const tz = userTimeZone();
  const today = todayIn(tz);
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', tz);
  const list = useProviderAppointments({ start: today, end: addDays(today, AVAILABILITY_HORIZON_DAYS), tz, status: status === 'all' ? undefined : status });
  const appointments = [...(list.data ?? [])].sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
  const [cancelling, setCancelling] = useState<AppointmentDetail | null>(null);
  const [message, setMessage] = useState<Flash | null>(null);

  // Past appointments cannot be cancelled: "now" as of the page's opening.
  const [openedAt] = useState(() => Date.now());
  const cancellable = (a: AppointmentDetail) => a.status === 'booked' && Date.parse(a.start_time) > openedAt;
  const when = (a: AppointmentDetail) => format.dateTime(a.start_time);
  const statusChip = (a: AppointmentDetail) => (
    <Chip size="small" color={a.status === 'booked' ? 'primary' : 'default'} variant={a.status === 'booked' ? 'filled' : 'outlined'} label={t(`appointments.status.${a.status}`)} />
  );
  const cancelButton = (a: AppointmentDetail) =>
    cancellable(a) ? (
      <Button size="small" color="error" variant="outlined" onClick={() => setCancelling(a)} aria-label={t('appointments.cancelOf', { name: a.patient_name, when: when(a) })}>
        {t('appointments.cancel')}
      </Button>
    ) : null;
  const visitButton = (a: AppointmentDetail) => <VideoVisitButton clientId={clientId} appointment={a} provider size="small" aria-label={t('appointments.startVisitOf', { name: a.patient_name, when: when(a) })} />;
  const notes = (a: AppointmentDetail) =>
    a.status === 'cancelled' ? (
      <Typography variant="body2" color="text.secondary">
        {a.cancelled_by_provider ? t('appointments.cancelledByYou') : t('appointments.cancelledByPatient')}
        {a.cancellation_notes ? ` — ${a.cancellation_notes}` : ''}
      </Typography>
    ) : null;

  return (
    <HubPage pageTitle={t('appointments.pageTitle')} intro={t('appointments.intro', { tz })} maxWidth={1100}>
      <TextField
        select
        size="small"
        label={t('appointments.show')}
        value={status}
        onChange={(e) => setParams(e.target.value === 'all' ? {} : { status: e.target.value }, { replace: true })}
        sx={{ minWidth: 220, mb: 2 }}
      >
        {STATUSES.map((s) => (
          <MenuItem key={s} value={s}>
            {t(`appointments.filter.${s}`)}
          </MenuItem>
        ))}
      </TextField>

      {list.isError && (
        <Alert severity="error" action={<Button onClick={() => void list.refetch()}>{t('retry')}</Button>} sx={{ mb: 2 }}>
          {t('loadFailed')}
        </Alert>
      )}
      {list.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {list.data && (
        <>
          <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('appointments.count', { count: appointments.length })}
          </Typography>
          {appointments.length === 0 ? (
            <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
              <Typography>{t('appointments.empty')}</Typography>
            </Paper>
          ) : wide ? (
            <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
              <Table aria-label={t('appointments.pageTitle')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('appointments.when')}</TableCell>
                    <TableCell>{t('appointments.patient')}</TableCell>
                    <TableCell>{t('appointments.reason')}</TableCell>
                    <TableCell>{t('appointments.statusLabel')}</TableCell>
                    <TableCell>
                      <Box component="span" sx={visuallyHidden}>
                        {t('appointments.actions')}
                      </Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {appointments.map((a) => (
                    <TableRow key={a.appointment_id} hover>
                      <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                        {when(a)}
                      </TableCell>
                      <TableCell>{a.patient_name}</TableCell>
                      <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}>
                        {a.reason_for_visit}
                        {notes(a)}
                      </TableCell>
                      <TableCell>{statusChip(a)}</TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
                          {visitButton(a)}
                          {cancelButton(a)}
                        </Stack>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Paper>
          ) : (
            <Box component="ul" aria-label={t('appointments.pageTitle')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
              {appointments.map((a) => (
                <Paper component="li" key={a.appointment_id} variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
                  <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'flex-start', mb: 0.5 }}>
                    <Typography sx={{ fontWeight: 600 }}>{when(a)}</Typography>
                    {statusChip(a)}
                  </Stack>
                  <Typography>{a.patient_name}</Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {a.reason_for_visit}
                  </Typography>
                  {notes(a)}
                  <Stack direction="row" spacing={1} sx={{ mt: 1.5, '&:empty': { display: 'none' } }}>
                    {visitButton(a)}
                    {cancelButton(a)}
                  </Stack>
                </Paper>
              ))}
            </Box>
          )}
        </>
      )}
      <CancelDialog
        appointment={cancelling}
        describe={(a) => t('appointments.cancelWhat', { name: a.patient_name, when: when(a) })}
        onClose={(result) => {
          setCancelling(null);
          if (result) setMessage(result);
        }}
      />
      <FlashMessage message={message} onClose={() => setMessage(null)} />
    </HubPage>
  );
}

/** "Are you sure you want to cancel this meeting?" with notes for the patient; Yes cancels, Cancel keeps it. */
function CancelDialog({ appointment, describe, onClose }: { appointment: AppointmentDetail | null; describe: (a: AppointmentDetail) => string; onClose: (result: Flash | null) => void }) {
  const { t } = useTranslation('provider');
  const cancel = useCancelAppointment();
  const [notes, setNotes] = useState('');
  const [shown, setShown] = useState<AppointmentDetail | null>(appointment);
  // The dialog keeps the appointment it shows while it closes (no empty text during the fade).
  if (appointment && appointment !== shown) {
    setShown(appointment);
    setNotes('');
  }
  const confirm = async () => {
    if (!appointment) return;
    try {
      await cancel.mutateAsync({ appointment, notes });
      onClose({ severity: 'success', text: t('appointments.cancelled') });
    } catch (error) {
      onClose({ severity: 'error', text: failureText(t('appointments.cancelFailed'), error) });
    }
  };
  return (
    <ConfirmDialog
      open={appointment !== null}
      title={t('appointments.cancelTitle')}
      onConfirm={() => void confirm()}
      onCancel={() => onClose(null)}
      confirmLabel={t('appointments.cancelConfirm')}
      cancelLabel={t('appointments.keep')}
      destructive
    >
      <DialogContentText sx={{ mb: 1 }}>{t('appointments.cancelQuestion')}</DialogContentText>
      {shown && <DialogContentText sx={{ mb: 2, fontWeight: 600 }}>{describe(shown)}</DialogContentText>}
      <TextField
        label={t('appointments.notes')}
        helperText={t('appointments.notesHelp')}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        multiline
        minRows={2}
        fullWidth
        slotProps={{ htmlInput: { maxLength: CANCELLATION_NOTES_MAX } }}
      />
    </ConfirmDialog>
  );
}
