import { useId, useMemo } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { specialityIn } from '@healthbook/shared/appointments';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { APPOINTMENT_COLOR, isInPast } from '@healthbook/shared/calendar';
import { VideoVisitButton } from '../../../../components/video-visit-button';
import { useCurrentUser } from '../../../../lib/auth';
import { useOrganizationContext } from '../../../../lib/organization-context';
import { paths } from '../../../../lib/paths';
import { useRecordAccess } from '../../../../lib/record-access';
import { formatters, useTimeZone } from '../../calendar-time';
import { eventColors } from '../../event-colors';

/** How many appointments the card lists. */
const SHOWN = 5;

/**
 * Dashboard widget: the next booked appointments (the user's patient_appointment_details from
 * GET /api/v1/me/, those not begun yet), in the user's time zone, each with its Details; none:
 * a way to book one.
 */
export default function UpcomingAppointmentsWidget() {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('calendar');
  const theme = useTheme();
  const user = useCurrentUser();
  const headingId = useId();
  const tz = useTimeZone();
  const f = formatters(i18n.resolvedLanguage, tz);
  const upcoming = useMemo(
    () =>
      (user?.patient_appointment_details ?? [])
        // Those to come, and one under way (its video visit may be joined until its end).
        .filter((a) => !isInPast(a.end_time))
        .sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time))
        .slice(0, SHOWN),
    [user],
  );
  const color = eventColors(APPOINTMENT_COLOR, theme.palette.mode).main;
  // Booking is offered only to whoever may book for the record open (the one rule: lib/record-access.ts).
  const { writes } = useRecordAccess();

  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1.5 }}>
        {t('widget.title')}
      </Typography>
      {upcoming.length === 0 ? (
        <>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('widget.empty')}
          </Typography>
          {writes.appointments && (
            <Button component={RouterLink} to={paths.telehealth(clientId)} variant="outlined">
              {t('widget.book')}
            </Button>
          )}
        </>
      ) : (
        <>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 2 }}>
            {upcoming.map((a) => (
              <Box component="li" key={a.availability_det_id} sx={{ py: 1.25, borderBottom: 1, borderColor: 'divider' }}>
                <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
                  <Box aria-hidden sx={{ width: 4, alignSelf: 'stretch', borderRadius: 2, bgcolor: color }} />
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <Typography sx={{ fontWeight: 600 }}>{f.dateTime(a.start_time)}</Typography>
                    <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {[a.provider_name, specialityIn(i18n.resolvedLanguage ?? 'en', a.provider_speciality, a.provider_speciality_el)].filter(Boolean).join(' · ')}
                    </Typography>
                    {writes.appointments && <VideoVisitButton clientId={clientId} appointment={a} size="small" sx={{ mt: 1 }} />}
                  </Box>
                  <Button component={RouterLink} to={paths.eventDetails(clientId, a.availability_det_id)} size="small" aria-label={t('widget.detailsOf', { provider: a.provider_name })}>
                    {t('widget.details')}
                  </Button>
                </Stack>
              </Box>
            ))}
          </Box>
          <Button component={RouterLink} to={paths.calendar(clientId)} variant="outlined">
            {t('widget.calendar')}
          </Button>
        </>
      )}
    </Paper>
  );
}
