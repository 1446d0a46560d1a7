import { useState, type ReactNode } from 'react';
import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import DialogContentText from '@mui/material/DialogContentText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import type { CalendarEvent } from '@healthbook/shared/contracts/calendar';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { flash, FlashMessage } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useDeleteEvent } from '../api/delete-event';
import { useEvent } from '../api/get-event';
import { dayOf, formatters, useTimeZone } from '../calendar-time';
import { eventColors } from '../event-colors';
import { describeRule, reminderLabel, typeLabel } from '../event-text';
import { lastDayOf } from '../group-items';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

/** The event id of the path, or null when it is not one. */
export const eventIdParam = (value: string | undefined): number | null => (value && /^[0-9]{1,10}$/.test(value) ? Number(value) : null);

/** /calendar/:eventId — an event: when, type, repeats, reminder, notes; edit (one-off events only) and delete. */
export default function EventPage() {
  const { eventId } = useParams();
  const { clientId } = useOrganizationContext();
  const id = eventIdParam(eventId);
  if (id === null) return <Navigate to={paths.notFound(clientId)} replace />;
  return <EventView key={id} id={id} />;
}

function EventView({ id }: { id: number }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('calendar');
  const event = useEvent(id);
  return (
    <HubPage pageTitle={event.data?.title ?? t('page.title')} maxWidth={800} back={{ to: paths.calendar(clientId), label: t('event.back') }}>
      <LoadState query={event} label={t('page.loading')} notFound={t('event.notFound')} failed={t('event.loadFailed')} />
      {event.data && <EventBody event={event.data} />}
      <FlashMessage />
    </HubPage>
  );
}

/** A page's loading spinner, or its "not found" / "could not load" message (the event and appointment pages). */
export function LoadState({ query, label, notFound, failed }: { query: { isPending: boolean; isError: boolean; error: unknown }; label: string; notFound: string; failed: string }) {
  if (query.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={label} />
      </Box>
    );
  }
  if (!query.isError) return null;
  const missing = query.error instanceof ApiError && query.error.status === 404;
  return <Alert severity={missing ? 'info' : 'error'}>{missing ? notFound : failed}</Alert>;
}

/** The details card of the event and appointment pages: a heading and the list of rows. */
export function DetailsSection({ id, title, rows }: { id: string; title: string; rows: Array<[string, ReactNode]> }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id={id} variant="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      <DetailList rows={rows} />
    </Paper>
  );
}

/** The rows of the details list. */
function DetailList({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'minmax(140px, 30%) 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1.25 } }}>
      {rows.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function EventBody({ event }: { event: CalendarEvent }) {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('calendar');
  const theme = useTheme();
  const navigate = useNavigate();
  const remove = useDeleteEvent();
  const { writes, readOnly } = useRecordAccess();
  const canWrite = writes.calendar;
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const tz = useTimeZone();
  const f = formatters(i18n.resolvedLanguage, tz);
  const colors = eventColors(event.color, theme.palette.mode);

  let when: Array<[string, ReactNode]>;
  if (event.all_day) {
    const first = dayOf(event.start_time, tz);
    const last = lastDayOf(event, tz);
    when = [[t('event.when'), first === last ? t('event.allDayOn', { date: f.longDay(first) }) : t('event.allDayFromTo', { from: f.day(first), to: f.day(last) })]];
  } else {
    when = [
      [t('event.starts'), f.dateTime(event.start_time)],
      [t('event.ends'), f.dateTime(event.end_time)],
    ];
  }
  const rows: Array<[string, ReactNode]> = [
    [t('event.type'), typeLabel(t, event.type)],
    ...when,
    ...(event.recurrence ? [[t('event.repeats'), describeRule(t, i18n.resolvedLanguage, event.recurrence, tz)] as [string, ReactNode]] : []),
    [t('event.reminder'), reminderLabel(t, event.reminder_minutes)],
    [t('event.notes'), event.description || <Typography component="span" color="text.secondary">{t('event.noNotes')}</Typography>],
  ];

  const confirmDelete = async () => {
    setConfirming(false);
    try {
      await remove.mutateAsync(event.event_id);
      await navigate(paths.calendar(clientId, { date: dayOf(event.start_time, tz) }), { replace: true, state: flash(t('event.deleted')) });
    } catch {
      setFailure(t('event.deleteFailed'));
    }
  };

  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center', rowGap: 1 }}>
        <Chip label={typeLabel(t, event.type)} size="small" sx={{ bgcolor: colors.main, color: colors.text, fontWeight: 600 }} />
        <Box sx={{ flex: 1 }} />
        {canWrite && !event.is_recurring && (
          <Button component={RouterLink} to={paths.calendarEventEdit(clientId, event.event_id)} variant="contained" startIcon={<Edit />}>
            {t('event.edit')}
          </Button>
        )}
        {canWrite && (
          <Button variant="outlined" color="error" startIcon={<DeleteOutline />} onClick={() => setConfirming(true)} disabled={remove.isPending}>
            {t('event.delete')}
          </Button>
        )}
      </Stack>
      {readOnly && <ReadOnlyNotice sx={{ mb: 2 }} />}
      {canWrite && event.is_recurring && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('event.recurringNoEdit')}
        </Alert>
      )}
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <DetailsSection id="event-details" title={t('event.details')} rows={rows} />
      <ConfirmDialog
        open={confirming}
        title={event.is_recurring ? t('event.deleteSeriesTitle') : t('event.deleteTitle')}
        confirmLabel={t('event.deleteConfirm')}
        destructive
        onConfirm={() => void confirmDelete()}
        onCancel={() => setConfirming(false)}
      >
        <DialogContentText>{event.is_recurring ? t('event.deleteSeriesText', { title: event.title }) : t('event.deleteText', { title: event.title })}</DialogContentText>
      </ConfirmDialog>
    </>
  );
}
