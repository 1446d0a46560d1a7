import { useEffect, useMemo, useState } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import type { CalendarEvent } from '@healthbook/shared/contracts/calendar';
import { useUnsavedChangesGuard } from '../../../components/dialogs/unsaved-changes';
import { flash } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useEvent } from '../api/get-event';
import { useTimeZone } from '../calendar-time';
import { eventFormValues } from '../event-values';
import { useEventForm } from './event-form';
import { eventIdParam, LoadState } from './event-page';
import { useRecordAccess } from '../../../lib/record-access';

/** /calendar/:eventId/edit — the event's form; offered only for events that do not repeat (a repeating one goes back to its page). */
export default function EventEditPage() {
  const { eventId } = useParams();
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('calendar');
  const id = eventIdParam(eventId);
  const event = useEvent(id ?? 0);
  const { readOnly } = useRecordAccess();
  if (id === null) return <Navigate to={paths.notFound(clientId)} replace />;
  if (event.data?.is_recurring || readOnly) return <Navigate to={paths.calendarEvent(clientId, id)} replace />;
  return (
    <HubPage pageTitle={t('form.editTitle')} maxWidth={720} back={{ to: paths.calendarEvent(clientId, id), label: event.data?.title ?? t('event.back') }}>
      <LoadState query={event} label={t('page.loading')} notFound={t('event.notFound')} failed={t('event.loadFailed')} />
      {event.data && <EditForm key={event.data.event_id} event={event.data} />}
    </HubPage>
  );
}

function EditForm({ event }: { event: CalendarEvent }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('calendar');
  const navigate = useNavigate();
  const tz = useTimeZone();
  const initial = useMemo(() => eventFormValues(event, tz), [event, tz]);
  const [saved, setSaved] = useState<CalendarEvent | null>(null);
  const { onSubmit, fields, submitting, dirty } = useEventForm({ initial, eventId: event.event_id, tz, onSaved: setSaved });
  // Once saved, the changes are no longer unsaved: the page is left after the guard lets go.
  const guard = useUnsavedChangesGuard(dirty && !submitting && !saved);
  useEffect(() => {
    if (saved) void navigate(paths.calendarEvent(clientId, saved.event_id), { state: flash(t('form.saved')) });
  }, [saved, navigate, clientId, t]);
  return (
    <Paper component="form" noValidate onSubmit={onSubmit} variant="outlined" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      {guard}
      {fields}
      <Stack direction="row" spacing={1.5} sx={{ mt: 3, justifyContent: 'flex-end' }}>
        <Button component={RouterLink} to={paths.calendarEvent(clientId, event.event_id)}>
          {t('form.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={submitting}>
          {t('form.save')}
        </Button>
      </Stack>
    </Paper>
  );
}
