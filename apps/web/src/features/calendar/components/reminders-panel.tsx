import { useId, useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import CalendarMonth from '@mui/icons-material/CalendarMonth';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import Close from '@mui/icons-material/Close';
import Edit from '@mui/icons-material/Edit';
import OpenInNew from '@mui/icons-material/OpenInNew';
import Visibility from '@mui/icons-material/VisibilityOutlined';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { PickerDay, type PickerDayProps } from '@mui/x-date-pickers/PickerDay';
import { fetchWindow, isInPast } from '@healthbook/shared/calendar';
import type { CalendarItem } from '@healthbook/shared/contracts/calendar';
import { failureText } from '../../../lib/form-errors';
import { paths } from '../../../lib/paths';
import { useNow } from '../../../lib/use-now';
import { useRecordAccess } from '../../../lib/record-access';
import { VideoVisitButton } from '../../../components/video-visit-button';
import { useCancelAppointment } from '../api/cancel-appointment';
import { useCalendarItems } from '../api/list-calendar-items';
import { addDays, dayjs, formatters, localeOf, relativeTo, todayIn, useTimeZone, type Dayjs } from '../calendar-time';
import { eventColors } from '../event-colors';
import { typeLabel } from '../event-text';
import { dayLabel, daysWithItems, groupByDay, itemKey } from '../group-items';
import { canEdit, itemPath } from '../item-links';

export interface RemindersPanelProps {
  clientId: string;
  /** A link in the panel was followed (the shell closes the drawer). */
  onNavigate: () => void;
}

/**
 * The Reminders drawer's content (§2): a date button that opens a month picker (dots on the days
 * with events), previous and next day, Today, "Open in new" (the calendar page); then the
 * selected day plus 10 days of events and appointments, grouped by day, each with its time, its
 * provider, how far away it is and Details, which expands it: type, title, start, notes, and view,
 * edit (events that do not repeat) and close; an appointment can be cancelled from there.
 */
export default function RemindersPanel({ clientId, onNavigate }: RemindersPanelProps) {
  const { t, i18n } = useTranslation('calendar');
  const tz = useTimeZone();
  const now = useNow();
  const today = todayIn(tz, now);
  const [selected, setSelected] = useState(today);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [month, setMonth] = useState(today.slice(0, 7));
  const [open, setOpen] = useState<string | null>(null);
  const pickerId = useId();
  const f = formatters(i18n.resolvedLanguage, tz);

  const range = fetchWindow(selected);
  const items = useCalendarItems(range.start, range.end, tz);
  const groups = useMemo(() => groupByDay(items.data ?? [], tz, selected), [items.data, tz, selected]);

  // The dots: the days of the month on show that have something.
  const monthStart = `${month}-01`;
  const monthEnd = dayjs.utc(monthStart).endOf('month').format('YYYY-MM-DD');
  const monthItems = useCalendarItems(monthStart, monthEnd, tz, pickerOpen);
  const dotted = useMemo(() => daysWithItems(monthItems.data ?? [], tz), [monthItems.data, tz]);

  // One value per day: a new object at each render would take the picker back to its month.
  const pickerValue = useMemo(() => dayjs(selected), [selected]);

  const select = (day: string) => {
    setSelected(day);
    setMonth(day.slice(0, 7));
    setOpen(null);
  };

  return (
    <Box sx={{ p: 2 }}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <Tooltip title={t('drawer.previousDay')}>
          <IconButton aria-label={t('drawer.previousDay')} onClick={() => select(addDays(selected, -1))}>
            <ChevronLeft />
          </IconButton>
        </Tooltip>
        <Button
          variant="outlined"
          startIcon={<CalendarMonth />}
          aria-label={t('drawer.date', { date: f.longDay(selected) })}
          aria-expanded={pickerOpen}
          aria-controls={pickerId}
          onClick={() => setPickerOpen(!pickerOpen)}
          sx={{ flex: 1, whiteSpace: 'nowrap', textTransform: 'none' }}
        >
          {f.day(selected)}
        </Button>
        <Tooltip title={t('drawer.nextDay')}>
          <IconButton aria-label={t('drawer.nextDay')} onClick={() => select(addDays(selected, 1))}>
            <ChevronRight />
          </IconButton>
        </Tooltip>
      </Stack>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mt: 1 }}>
        <Button size="small" onClick={() => select(today)} disabled={selected === today}>
          {t('drawer.today')}
        </Button>
        <Button size="small" component={RouterLink} to={paths.calendar(clientId, { date: selected })} onClick={onNavigate} endIcon={<OpenInNew />}>
          {t('drawer.openCalendar')}
        </Button>
      </Stack>

      <Collapse in={pickerOpen} unmountOnExit>
        <Box id={pickerId} role="group" aria-label={t('drawer.picker')} sx={{ mx: -1 }}>
          <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale={localeOf(i18n.resolvedLanguage)}>
            <DateCalendar
              value={pickerValue}
              onChange={(next: Dayjs | null) => {
                if (next?.isValid()) {
                  select(next.format('YYYY-MM-DD'));
                  setPickerOpen(false);
                }
              }}
              onMonthChange={(next: Dayjs) => setMonth(next.format('YYYY-MM'))}
              views={['day']}
              showDaysOutsideCurrentMonth={false}
              loading={monthItems.isFetching && !monthItems.data}
              slots={{ day: DotDay }}
              slotProps={{ day: { dotted, hasEventsLabel: t('drawer.hasEvents') } as Partial<PickerDayProps> }}
              sx={{ width: '100%', maxWidth: 320, height: 'auto', maxHeight: 'none' }}
            />
          </LocalizationProvider>
        </Box>
      </Collapse>

      <Box sx={{ mt: 2 }} aria-busy={items.isFetching}>
        {items.isPending && (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress size={28} aria-label={t('drawer.loading')} />
          </Box>
        )}
        {items.isError && <Alert severity="error">{t('loadFailed')}</Alert>}
        {items.data && groups.length === 0 && (
          <Typography color="text.secondary" sx={{ py: 2 }}>
            {t('noEvents')}
          </Typography>
        )}
        {groups.map((group) => {
          const label = dayLabel(group.day, today);
          const headingId = `reminders-day-${group.day}`;
          return (
            <Box component="section" key={group.day} aria-labelledby={headingId} sx={{ mb: 2 }}>
              <Typography id={headingId} component="h3" variant="subtitle2" sx={{ color: 'text.secondary', mb: 0.5, textTransform: 'capitalize' }}>
                {label === 'date' ? f.longDay(group.day) : `${t(`drawer.day${label[0]!.toUpperCase()}${label.slice(1)}`)} · ${f.day(group.day)}`}
              </Typography>
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {group.items.map((item) => {
                  const key = itemKey(item);
                  return (
                    <ReminderItem
                      key={key}
                      item={item}
                      clientId={clientId}
                      now={now}
                      tz={tz}
                      expanded={open === key}
                      onToggle={(next) => setOpen(next ? key : null)}
                      onNavigate={onNavigate}
                    />
                  );
                })}
              </Box>
            </Box>
          );
        })}
      </Box>
    </Box>
  );
}

interface DotDayProps extends PickerDayProps {
  dotted?: Set<string>;
  hasEventsLabel?: string;
}

/** A day of the month picker, with a dot when something happens that day. */
function DotDay({ dotted, hasEventsLabel, ...props }: DotDayProps) {
  const has = !props.outsideCurrentMonth && dotted?.has(props.day.format('YYYY-MM-DD')) === true;
  return (
    <Badge key={props.day.toString()} overlap="circular" variant="dot" color="primary" invisible={!has} sx={{ '& .MuiBadge-dot': { bottom: 6, top: 'auto', right: '50%', transform: 'translateX(50%)' } }}>
      <PickerDay {...props} {...(has ? { 'aria-label': `${props.day.format('D')}, ${hasEventsLabel ?? ''}` } : {})} />
    </Badge>
  );
}

interface ReminderItemProps {
  item: CalendarItem;
  clientId: string;
  now: Date;
  tz: string;
  expanded: boolean;
  onToggle: (open: boolean) => void;
  onNavigate: () => void;
}

function ReminderItem({ item, clientId, now, tz, expanded, onToggle, onNavigate }: ReminderItemProps) {
  const { t, i18n } = useTranslation('calendar');
  const theme = useTheme();
  const f = formatters(i18n.resolvedLanguage, tz);
  const colors = eventColors(item.color, theme.palette.mode);
  const detailsId = useId();
  const cancel = useCancelAppointment();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const appointment = item.kind === 'appointment';
  const { writes } = useRecordAccess();
  const name = appointment ? (item.provider_name ?? item.title) : item.title;
  const time = item.all_day ? t('drawer.allDay') : f.time(item.start_time);
  const cancellable = appointment && item.provider_id !== undefined && !isInPast(item.start_time, now);

  const confirmCancel = async () => {
    setFailure(null);
    try {
      await cancel.mutateAsync({ appointment: { provider_id: item.provider_id!, availability_det_id: item.event_id, appointment_date: item.appointment_date ?? null } });
      setConfirming(false);
    } catch (error) {
      setFailure(failureText(t('appointment.cancelFailed'), error));
    }
  };

  return (
    <Box component="li" sx={{ borderBottom: 1, borderColor: 'divider', py: 1 }}>
      <Stack direction="row" spacing={1.25} sx={{ alignItems: 'flex-start' }}>
        <Box aria-hidden sx={{ width: 4, alignSelf: 'stretch', borderRadius: 2, bgcolor: colors.main, flexShrink: 0 }} />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {time}
          </Typography>
          <Typography sx={{ overflowWrap: 'anywhere' }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {relativeTo(item.start_time, now, i18n.resolvedLanguage)}
          </Typography>
        </Box>
        {appointment && writes.appointments && <VideoVisitButton clientId={clientId} appointment={{ availability_det_id: item.event_id, start_time: item.start_time, end_time: item.end_time }} size="small" onClick={onNavigate} sx={{ flexShrink: 0 }} />}
        <Button size="small" aria-expanded={expanded} aria-controls={detailsId} aria-label={t('drawer.detailsOf', { title: name })} onClick={() => onToggle(!expanded)} sx={{ flexShrink: 0 }}>
          {t('drawer.details')}
        </Button>
      </Stack>
      <Collapse in={expanded} unmountOnExit>
        <Box id={detailsId} sx={{ mt: 1, ml: 2, p: 1.5, borderRadius: 2, bgcolor: 'action.hover' }}>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 1.5, rowGap: 0.5, fontSize: '0.875rem' }}>
            {(
              [
                [t('drawer.type'), typeLabel(t, item.type)],
                [t('drawer.title'), appointment ? t('drawer.withProvider', { provider: name }) : item.title],
                [t('drawer.start'), item.all_day ? `${t('drawer.allDay')}, ${f.date(item.start_time)}` : f.dateTime(item.start_time)],
                ...(item.description ? [[t('drawer.notes'), item.description]] : []),
              ] as Array<[string, string]>
            ).map(([term, value]) => (
              <Box key={term} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {term}
                </Typography>
                <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                  {value}
                </Typography>
              </Box>
            ))}
          </Box>
          <Stack direction="row" spacing={0.5} sx={{ mt: 1, alignItems: 'center' }}>
            <Tooltip title={t('drawer.view')}>
              <IconButton size="small" component={RouterLink} to={itemPath(clientId, item)} onClick={onNavigate} aria-label={t('drawer.view')}>
                <Visibility fontSize="small" />
              </IconButton>
            </Tooltip>
            {canEdit(item) && (
              <Tooltip title={t('drawer.edit')}>
                <IconButton size="small" component={RouterLink} to={paths.calendarEventEdit(clientId, item.event_id)} onClick={onNavigate} aria-label={t('drawer.edit')}>
                  <Edit fontSize="small" />
                </IconButton>
              </Tooltip>
            )}
            <Tooltip title={t('drawer.close')}>
              <IconButton size="small" onClick={() => onToggle(false)} aria-label={t('drawer.close')}>
                <Close fontSize="small" />
              </IconButton>
            </Tooltip>
            <Box sx={{ flex: 1 }} />
            {cancellable && !confirming && (
              <Button size="small" color="error" onClick={() => setConfirming(true)}>
                {t('drawer.cancel')}
              </Button>
            )}
          </Stack>
          {cancellable && confirming && (
            <Alert severity="warning" sx={{ mt: 1 }}>
              {t('appointment.cancelQuestion')}
              <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
                <Button size="small" color="error" variant="contained" onClick={() => void confirmCancel()} disabled={cancel.isPending}>
                  {t('appointment.cancelYes')}
                </Button>
                <Button size="small" color="inherit" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
                  {t('appointment.cancelNo')}
                </Button>
              </Stack>
            </Alert>
          )}
          {failure && (
            <Alert severity="error" sx={{ mt: 1 }}>
              {failure}
            </Alert>
          )}
          {cancel.isSuccess && (
            <Typography role="status" variant="body2" sx={{ mt: 1 }}>
              {t('drawer.cancelled')}
            </Typography>
          )}
        </Box>
      </Collapse>
    </Box>
  );
}
