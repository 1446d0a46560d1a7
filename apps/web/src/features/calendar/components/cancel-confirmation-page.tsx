import { Link as RouterLink, Navigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import EventBusy from '@mui/icons-material/EventBusy';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useAppointment } from '../api/get-appointment';
import { formatters, useTimeZone } from '../calendar-time';
import { eventIdParam } from './event-page';

/** cancel-confirmation?eventId=<availability_det_id> — after a cancellation: what was cancelled, and where to go next. */
export default function CancelConfirmationPage() {
  const [search] = useSearchParams();
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('calendar');
  const id = eventIdParam(search.get('eventId') ?? undefined);
  const appointment = useAppointment(id ?? 0);
  const tz = useTimeZone();
  if (id === null) return <Navigate to={paths.notFound(clientId)} replace />;
  const f = formatters(i18n.resolvedLanguage, tz);
  const data = appointment.data;
  // Only a cancelled appointment has a confirmation; a booked one shows its details.
  if (data && data.status !== 'cancelled') return <Navigate to={paths.eventDetails(clientId, id)} replace />;

  return (
    <HubPage pageTitle={t('cancelled.pageTitle')} title={t('cancelled.title')} maxWidth={720}>
      {appointment.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('cancelled.pageTitle')} />
        </Box>
      )}
      {appointment.isError && <Alert severity="error">{t('appointment.loadFailed')}</Alert>}
      {data && (
        <Paper variant="outlined" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start' }}>
            <EventBusy color="error" fontSize="large" aria-hidden />
            <Typography>{t('cancelled.text', { provider: data.provider_name, date: f.dateTime(data.start_time) })}</Typography>
          </Stack>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3 }}>
            <Button component={RouterLink} to={paths.calendar(clientId)} variant="contained">
              {t('cancelled.toCalendar')}
            </Button>
            <Button component={RouterLink} to={paths.telehealth(clientId)} variant="outlined">
              {t('cancelled.book')}
            </Button>
            <Button component={RouterLink} to={paths.dashboard(clientId)}>
              {t('cancelled.dashboard')}
            </Button>
          </Stack>
        </Paper>
      )}
    </HubPage>
  );
}
