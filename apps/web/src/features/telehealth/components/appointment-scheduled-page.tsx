import { Link as RouterLink, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { specialityIn } from '@healthbook/shared/appointments';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircle from '@mui/icons-material/CheckCircle';
import type { AppointmentDetail } from '@healthbook/shared/contracts/appointments';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { dayOf, userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useAppointment } from '../api/get-appointment';
import { SummaryList } from './summary-list';

/**
 * /appointment-scheduled?eventId=<availability_det_id> — the confirmation: when (in the reader's
 * zone), with whom, why, and the way to the appointment's event in the calendar. The booking
 * page hands the appointment over; opened anew, it is read from the patient's appointments.
 */
export default function AppointmentScheduledPage() {
  const { t } = useTranslation('telehealth');
  const [params] = useSearchParams();
  const eventId = Number(params.get('eventId'));
  const handed = (useLocation().state as { appointment?: AppointmentDetail } | null)?.appointment;
  const tz = userTimeZone();
  const known = handed?.availability_det_id === eventId ? handed : undefined;
  const appointment = useAppointment(eventId, !known && eventId > 0);
  const shown = known ?? appointment.data;

  return (
    <HubPage pageTitle={t('scheduled.pageTitle')} title={null} maxWidth={720}>
      {shown ? (
        <Scheduled appointment={shown} tz={tz} />
      ) : appointment.isPending && eventId > 0 ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      ) : (
        <>
          <Typography variant="h1" sx={{ mb: 3 }}>
            {t('scheduled.pageTitle')}
          </Typography>
          <Alert severity="error">{appointment.error instanceof ApiError && appointment.error.status !== 404 ? t('loadFailed') : t('scheduled.notFound')}</Alert>
        </>
      )}
    </HubPage>
  );
}

function Scheduled({ appointment, tz }: { appointment: AppointmentDetail; tz: string }) {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('telehealth');
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', tz);
  const rows: Array<[string, string]> = [
    [t('confirm.provider'), [appointment.provider_name, specialityIn(i18n.resolvedLanguage ?? 'en', appointment.provider_speciality, appointment.provider_speciality_el)].filter(Boolean).join(' · ')],
    [t('confirm.date'), format.day(dayOf(appointment.start_time, tz))],
    [t('confirm.time'), t('confirm.timeValue', { start: format.time(appointment.start_time), end: format.time(appointment.end_time), tz })],
    [t('confirm.reason'), appointment.reason_for_visit],
  ];
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 }, borderRadius: 3 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', mb: 3 }}>
        <CheckCircle color="success" sx={{ fontSize: 40, flexShrink: 0 }} aria-hidden />
        <Box>
          <Typography variant="h1" sx={{ mb: 1 }}>
            {t('scheduled.title')}
          </Typography>
          <Typography color="text.secondary">{t('scheduled.text')}</Typography>
        </Box>
      </Box>
      <SummaryList rows={rows} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
        <Button component={RouterLink} to={paths.eventDetails(clientId, appointment.availability_det_id)} variant="contained">
          {t('scheduled.calendar')}
        </Button>
        <Button component={RouterLink} to={paths.telehealth(clientId)} variant="outlined">
          {t('scheduled.another')}
        </Button>
      </Stack>
    </Paper>
  );
}
