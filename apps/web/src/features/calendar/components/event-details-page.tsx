import { useState, type ReactNode } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import EventBusy from '@mui/icons-material/EventBusy';
import { isInPast } from '@healthbook/shared/calendar';
import { CANCELLATION_NOTES_MAX, specialityIn } from '@healthbook/shared/appointments';
import type { AppointmentDetail } from '@healthbook/shared/contracts/appointments';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { HubPage } from '../../../components/hub-page';
import { failureText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useCancelAppointment } from '../api/cancel-appointment';
import { useAppointment } from '../api/get-appointment';
import { formatters, useTimeZone } from '../calendar-time';
import { DetailsSection, LoadState, eventIdParam } from './event-page';
import { useRecordAccess } from '../../../lib/record-access';
import { useVisit } from '../../../lib/visit-query';
import { VideoVisitButton } from '../../../components/video-visit-button';


/** event-details?eventId=<availability_det_id> — a booked appointment, and its cancellation ("Are you sure you want to cancel this meeting?"). */
export default function EventDetailsPage() {
  const [search] = useSearchParams();
  const { clientId } = useOrganizationContext();
  const id = eventIdParam(search.get('eventId') ?? undefined);
  if (id === null) return <Navigate to={paths.notFound(clientId)} replace />;
  return <AppointmentView key={id} id={id} />;
}

function AppointmentView({ id }: { id: number }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('calendar');
  const appointment = useAppointment(id);
  const title = appointment.data ? t('appointment.title', { provider: appointment.data.provider_name }) : t('appointment.pageTitle');
  return (
    <HubPage pageTitle={title} maxWidth={800} back={{ to: paths.calendar(clientId), label: t('appointment.back') }}>
      <LoadState query={appointment} label={t('appointment.pageTitle')} notFound={t('appointment.notFound')} failed={t('appointment.loadFailed')} />
      {appointment.data && <AppointmentBody appointment={appointment.data} />}
    </HubPage>
  );
}

function AppointmentBody({ appointment }: { appointment: AppointmentDetail }) {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('calendar');
  const navigate = useNavigate();
  const cancel = useCancelAppointment();
  const { writes } = useRecordAccess();
  const canWrite = writes.calendar;
  const tz = useTimeZone();
  const f = formatters(i18n.resolvedLanguage, tz);
  const speciality = specialityIn(i18n.resolvedLanguage ?? 'en', appointment.provider_speciality, appointment.provider_speciality_el);
  const [confirming, setConfirming] = useState(false);
  const [notes, setNotes] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const cancelled = appointment.status === 'cancelled';
  const past = isInPast(appointment.start_time);
  // The video visit: when it opens, or how long it lasted (those who may not join it get 403: no row).
  const visit = useVisit(appointment.availability_det_id, !cancelled && canWrite).data;
  const visitText = !visit
    ? null
    : visit.status === 'ended' && visit.duration_s !== null
      ? t('appointment.visitLasted', { count: Math.max(1, Math.round(visit.duration_s / 60)) })
      : visit.phase === 'early'
        ? t('appointment.visitOpens', { time: f.dateTime(visit.opens_at) })
        : visit.phase === 'open'
          ? t('appointment.visitOpen', { time: f.time(visit.closes_at) })
          : t('appointment.visitClosed');

  const rows: Array<[string, ReactNode]> = [

    [t('appointment.provider'), appointment.provider_name],
    ...(speciality ? [[t('appointment.speciality'), speciality] as [string, ReactNode]] : []),
    [t('appointment.date'), f.longDate(appointment.start_time)],
    [t('appointment.time'), `${f.time(appointment.start_time)} – ${f.time(appointment.end_time)}`],
    ...(visitText ? [[t('appointment.videoVisit'), visitText] as [string, ReactNode]] : []),
    [t('appointment.reason'), appointment.reason_for_visit],
    [t('appointment.status'), t(`appointment.statuses.${appointment.status}`)],
    ...(cancelled && appointment.cancellation_notes ? [[t('appointment.cancelledNotes'), appointment.cancellation_notes] as [string, ReactNode]] : []),
  ];

  const confirm = async () => {
    setFailure(null);
    try {
      await cancel.mutateAsync({ appointment, notes });
      setConfirming(false);
      await navigate(paths.cancelConfirmation(clientId, appointment.availability_det_id));
    } catch (error) {
      setConfirming(false);
      setFailure(failureText(t('appointment.cancelFailed'), error));
    }
  };

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}>
        <Chip label={t(`appointment.statuses.${appointment.status}`)} color={cancelled ? 'default' : 'primary'} size="small" />
        <Box sx={{ flex: 1 }} />
        {canWrite && visit?.phase === 'open' && visit.status !== 'ended' && <VideoVisitButton clientId={clientId} appointment={{ ...appointment, end_time: visit.closes_at }} />}
        {canWrite && !cancelled && !past && visit?.status !== 'ended' && (
          <Button variant="outlined" color="error" startIcon={<EventBusy />} onClick={() => setConfirming(true)} disabled={cancel.isPending}>
            {t('appointment.cancel')}
          </Button>
        )}
      </Stack>
      {cancelled && appointment.cancelled_by_provider && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('appointment.cancelledByProvider')}
        </Alert>
      )}
      {!cancelled && isInPast(appointment.end_time) && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('appointment.past')}
        </Alert>
      )}
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <DetailsSection id="appointment-details" title={t('event.details')} rows={rows} />
      <ConfirmDialog
        open={confirming}
        title={t('appointment.cancelTitle')}
        confirmLabel={t('appointment.cancelYes')}
        cancelLabel={t('appointment.cancelNo')}
        destructive
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      >
        <DialogContentText sx={{ mb: 2 }}>{t('appointment.cancelQuestion')}</DialogContentText>
        <TextField
          label={t('appointment.cancelNotes')}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          multiline
          minRows={2}
          fullWidth
          slotProps={{ htmlInput: { maxLength: CANCELLATION_NOTES_MAX } }}
        />
      </ConfirmDialog>
    </>
  );
}
