import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button, { type ButtonProps } from '@mui/material/Button';
import Videocam from '@mui/icons-material/Videocam';
import { visitPhase, visitWindow } from '@healthbook/shared/visits';
import { paths } from '../lib/paths';
import { useNow } from '../lib/use-now';

export interface VideoVisitAppointment {
  availability_det_id: number;
  start_time: string;
  end_time: string;
  status?: 'booked' | 'cancelled' | string;
}

/**
 * "Join video visit" (the patient side) or "Start visit" (the provider) for a booked appointment,
 * shown only while its call may be joined: from VISIT_EARLY_MINUTES before its start to its end
 * (the shared rule of packages/shared visits.ts; a provider's extension is known on the visit's
 * page). The clock is read every 30 seconds, so the button appears on time on an open page.
 * `clientId` is given, not read from the organisation's context: the Reminders drawer is drawn
 * outside it.
 */
export function VideoVisitButton({ clientId, appointment, provider = false, ...props }: { clientId: string; appointment: VideoVisitAppointment; provider?: boolean } & Omit<ButtonProps, 'children'>) {
  const { t } = useTranslation();
  const now = useNow(30_000);
  if (appointment.status === 'cancelled' || visitPhase(visitWindow({ start: appointment.start_time, end: appointment.end_time }), now) !== 'open') return null;
  return (
    <Button component={RouterLink} to={paths.videoVisit(clientId, appointment.availability_det_id)} variant="contained" startIcon={<Videocam aria-hidden />} {...props}>
      {provider ? t('videoVisit.start') : t('videoVisit.join')}
    </Button>
  );
}
