import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import FullCalendar from '@fullcalendar/react';
import type { DatesSetArg, EventClickArg, EventContentArg, EventInput } from '@fullcalendar/core';
import elLocale from '@fullcalendar/core/locales/el';
import dayGridPlugin from '@fullcalendar/daygrid';
import interactionPlugin, { type DateClickArg } from '@fullcalendar/interaction';
import listPlugin from '@fullcalendar/list';
import timeGridPlugin from '@fullcalendar/timegrid';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import Add from '@mui/icons-material/Add';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { EVENT_TYPES } from '@healthbook/shared/calendar';
import { flash, FlashMessage } from '../../../components/flash-message';
import { readableOn } from '../../../lib/theme';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useCalendarItems } from '../api/list-calendar-items';
import { addDays, dayjs, isDay, localeOf, todayIn, useTimeZone } from '../calendar-time';
import { eventColors } from '../event-colors';
import { selectedToggle } from './toggle-style';
import { typeLabel } from '../event-text';
import { newEventValues, type EventFormValues } from '../event-values';
import { itemKey, shownHours } from '../group-items';
import { itemPath } from '../item-links';
import { EventDialog } from './event-dialog';
import { FeedPanel } from './feed-panel';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

/** The views offered, in the order of their buttons: a month's list (an agenda) first, the phone's default. */
const VIEW_NAMES = ['list', 'month', 'week', 'day'] as const;
type View = (typeof VIEW_NAMES)[number];
const VIEWS: Record<View, string> = { list: 'listMonth', month: 'dayGridMonth', week: 'timeGridWeek', day: 'timeGridDay' };
const PLUGINS = [dayGridPlugin, timeGridPlugin, listPlugin, interactionPlugin];
const LOCALES = [elLocale];
const markAsButton = ({ el }: { el: HTMLElement }) => el.setAttribute('role', 'button');
const EVENT_TIME_FORMAT = { hour: 'numeric', minute: '2-digit', meridiem: 'short' } as const;
const PHONE_WEEK_HEADER = { weekday: 'narrow', day: 'numeric', omitCommas: true } as const;
const viewOf = (fcView: string): View => VIEW_NAMES.find((v) => VIEWS[v] === fcView) ?? 'month';

/**
 * /calendar — a month's list, month, week and day views of the patient's events and appointments (FullCalendar; a phone opens on the list),
 * in the user's time zone, coloured by type. A day (or a time) clicked opens "New event"; an
 * event opens its page, an appointment its details. Below: the calendar-app subscription.
 */
export default function CalendarPage() {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('calendar');
  const theme = useTheme();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const tz = useTimeZone();
  const today = todayIn(tz);
  const calendarRef = useRef<FullCalendar>(null);
  const todayBackground = alpha(theme.palette.primary.main, theme.palette.mode === 'light' ? 0.07 : 0.16);
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });

  // Where the calendar opens (the address remembers the view and the date); FullCalendar moves on by itself.
  const [initialView] = useState<View>(() => VIEW_NAMES.find((v) => v === search.get('view')) ?? (phone ? 'list' : 'month'));
  const [initialDate] = useState(() => (isDay(search.get('date') ?? '') ? search.get('date')! : today));
  const [range, setRange] = useState<{ start: string; end: string; title: string; view: View } | null>(null);
  const [creating, setCreating] = useState<EventFormValues | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const items = useCalendarItems(range?.start ?? initialDate, range?.end ?? initialDate, tz, range !== null);

  const events = useMemo<EventInput[]>(
    () =>
      (items.data ?? []).map((item) => {
        const colors = eventColors(item.color, theme.palette.mode);
        return {
          id: itemKey(item),
          title: item.kind === 'appointment' ? (item.provider_name ?? item.title) : item.title,
          start: item.start_time,
          end: item.end_time,
          allDay: item.all_day,
          url: itemPath(clientId, item),
          backgroundColor: colors.main,
          borderColor: colors.main,
          textColor: colors.text,
          extendedProps: { item },
        };
      }),
    [items.data, theme.palette.mode, clientId],
  );

  const hours = useMemo(() => shownHours(items.data ?? []), [items.data]);

  const datesSet = useCallback(
    (info: DatesSetArg) => {
      const start = dayjs(info.start).format('YYYY-MM-DD');
      // FullCalendar's end is exclusive; the API's is the last day.
      const end = addDays(dayjs(info.end).format('YYYY-MM-DD'), -1);
      const view = viewOf(info.view.type);
      setRange({ start, end, title: info.view.title, view });
      const current = dayjs(info.view.currentStart).format('YYYY-MM-DD');
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('view', view);
          next.set('date', current);
          return next;
        },
        { replace: true },
      );
    },
    [setSearch],
  );

  const { writes, readOnly } = useRecordAccess();
  const canWrite = writes.calendar;
  const api = () => calendarRef.current?.getApi();
  const openNew = (values: EventFormValues) => setCreating(values);

  const dateClick = useCallback((info: DateClickArg) => {
    const day = dayjs(info.date).format('YYYY-MM-DD');
    if (info.view.type === 'dayGridMonth' || info.allDay) setCreating(newEventValues(day, undefined, info.view.type !== 'dayGridMonth'));
    else setCreating(newEventValues(day, dayjs(info.date).format('HH:mm')));
  }, [setCreating]);

  const eventClick = useCallback(
    (info: EventClickArg) => {
      info.jsEvent.preventDefault();
      if (info.event.url) void navigate(info.event.url);
    },
    [navigate],
  );

  const moreLinkText = useCallback((n: number) => t('page.more', { count: n }), [t]);
  // A title is whole in the list and, on a phone, in a month's narrow cells (it wraps there); elsewhere one line.
  const renderEvent = useCallback((arg: EventContentArg) => (
    <Box
      sx={
        arg.view.type === 'listMonth'
          ? { fontSize: '0.9375rem' }
          : phone
            ? { px: 0.25, whiteSpace: 'normal', overflowWrap: 'anywhere', hyphens: 'auto', fontSize: '0.75rem', lineHeight: 1.3 }
            : { px: 0.5, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', fontSize: '0.8125rem', lineHeight: 1.5 }
      }
    >
      {arg.timeText && !arg.event.allDay && <Box component="span" sx={{ fontWeight: 600, mr: 0.5 }}>{arg.timeText}</Box>}
      {/* The title is the patient's own (or the provider's name): not words to translate. */}
      <span translate="no">{arg.event.title}</span>
    </Box>
  ), [phone]);

  const containsToday = range ? range.start <= today && today <= range.end : true;
  const locale = localeOf(i18n.resolvedLanguage);

  return (
    <HubPage pageTitle={t('page.title')} intro={t('page.intro')} maxWidth={1200}>
      {readOnly && <ReadOnlyNotice />}
      <Paper variant="outlined" sx={{ borderRadius: 3, p: { xs: 1, sm: 2 }, mb: 3 }}>
        <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1.5 }}>
          <Tooltip title={t('page.previous')}>
            <IconButton aria-label={t('page.previous')} onClick={() => api()?.prev()}>
              <ChevronLeft />
            </IconButton>
          </Tooltip>
          <Tooltip title={t('page.next')}>
            <IconButton aria-label={t('page.next')} onClick={() => api()?.next()}>
              <ChevronRight />
            </IconButton>
          </Tooltip>
          <Button variant="outlined" size="small" onClick={() => api()?.today()} disabled={containsToday}>
            {t('page.today')}
          </Button>
          <Typography variant="h2" component="h2" aria-live="polite" sx={{ flex: '1 1 auto', minWidth: 160, px: 1, textTransform: 'capitalize' }}>
            {range?.title ?? ''}
          </Typography>
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            aria-label={t('page.views')}
            value={range?.view ?? initialView}
            sx={selectedToggle}
            onChange={(_e, next: View | null) => next && api()?.changeView(VIEWS[next])}
          >
            {VIEW_NAMES.map((v) => (
              <ToggleButton key={v} value={v} sx={{ px: 1.5 }}>
                {t(`page.${v}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          {canWrite && (
            <Button variant="contained" startIcon={<Add />} onClick={() => openNew(newEventValues(range && (range.view === 'week' || range.view === 'day') ? dayjs(api()?.getDate()).format('YYYY-MM-DD') : today))}>
              {t('page.add')}
            </Button>
          )}
        </Stack>
        <Box sx={{ height: 4, mb: 1 }}>{items.isFetching && <LinearProgress aria-label={t('page.loading')} />}</Box>
        {items.isError && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {t('loadFailed')}
          </Alert>
        )}
        <Box
          sx={{
            '--fc-border-color': theme.palette.divider,
            '--fc-page-bg-color': theme.palette.background.paper,
            '--fc-neutral-bg-color': theme.palette.action.hover,
            '--fc-neutral-text-color': theme.palette.text.secondary,
            '--fc-today-bg-color': todayBackground,
            '--fc-now-indicator-color': theme.palette.error.main,
            '--fc-highlight-color': alpha(theme.palette.primary.main, 0.15),
            '--fc-small-font-size': '0.8125rem',
            '& .fc': { fontFamily: theme.typography.fontFamily, color: theme.palette.text.primary },
            '& .fc a': { color: 'inherit', textDecoration: 'none' },
            // A week's day headings and "+ 2 more" wrap in a phone's narrow columns rather than spill out.
            '& .fc .fc-col-header-cell-cushion': { py: 0.75, fontWeight: 600, textTransform: 'capitalize', whiteSpace: 'normal' },
            '& .fc .fc-daygrid-day-number, & .fc .fc-col-header-cell-cushion[data-navlink]': { cursor: 'pointer' },
            '& .fc .fc-daygrid-day-number:hover, & .fc [data-navlink]:hover': { textDecoration: 'underline' },
            '& .fc .fc-day-today .fc-daygrid-day-number': { fontWeight: 700, color: theme.palette.mode === 'light' ? readableOn(theme.palette.primary.main, todayBackground) : theme.palette.text.primary },
            // Days of the next and last months: dimmer, yet readable (FullCalendar fades them to 30 %).
            '& .fc .fc-day-other .fc-daygrid-day-top': { opacity: 1, color: theme.palette.text.secondary },
            '& .fc .fc-daygrid-day, & .fc .fc-timegrid-slot': { cursor: 'pointer' },
            '& .fc .fc-event': { cursor: 'pointer', borderRadius: 1 },
            '& .fc .fc-event:focus-visible': { outline: `3px solid ${theme.palette.primary.main}`, outlineOffset: 1 },
            '& .fc .fc-daygrid-more-link': { fontWeight: 600, whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.2 },
            // Every link of the calendar is a target of at least 24 × 24 px (WCAG 2.2, 2.5.8): a day's number, a day's
            // heading in the week, an event in a month's cell, "+ more".
            '& .fc .fc-daygrid-day-number, & .fc .fc-col-header-cell-cushion[data-navlink], & .fc .fc-daygrid-more-link': {
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
              minWidth: 24,
              minHeight: 24,
            },
            '& .fc .fc-daygrid-event': { minHeight: 24, display: 'flex', alignItems: 'center' },
            '& .fc .fc-timegrid-slot-label-cushion, & .fc .fc-timegrid-axis-cushion': { color: theme.palette.text.secondary },
            '& .fc .fc-timegrid-axis-cushion': { whiteSpace: 'normal', fontSize: '0.75rem', textAlign: 'right', overflowWrap: 'anywhere' },
          }}
        >
          <FullCalendar
            ref={calendarRef}
            plugins={PLUGINS}
            initialView={VIEWS[initialView]}
            initialDate={initialDate}
            headerToolbar={false}
            locales={LOCALES}
            locale={locale}
            timeZone="local"
            // No scrolling inside the calendar: a week or a day shows the hours its events need (shownHours).
            height="auto"
            slotMinTime={hours.min}
            slotMaxTime={hours.max}
            eventMinHeight={24}
            // On a phone a month's cells are narrow: the titles, without their times.
            displayEventTime={!(phone && (range?.view ?? initialView) === 'month')}
            // On a phone a week's columns are narrow: the day's initial and its number.
            {...(phone ? { views: { timeGridWeek: { dayHeaderFormat: PHONE_WEEK_HEADER } } } : {})}
            expandRows
            dayMaxEvents={3}
            navLinks
            nowIndicator
            eventDisplay="block"
            displayEventEnd={false}
            eventTimeFormat={EVENT_TIME_FORMAT}
            slotLabelFormat={EVENT_TIME_FORMAT}
            allDayText={t('page.allDay')}
            noEventsText={t('page.noEvents')}
            // The list's column heads, for screen readers.
            timeHint={t('page.timeHint')}
            eventHint={t('page.eventHint')}
            moreLinkText={moreLinkText}
            // "+ 2 more" opens a popover (aria-expanded): a button, which FullCalendar's <a> without an address is not.
            moreLinkDidMount={markAsButton}
            events={events}
            datesSet={datesSet}
            {...(canWrite ? { dateClick } : {})}
            eventClick={eventClick}
            eventContent={renderEvent}
          />
        </Box>
        <Stack component="ul" direction="row" aria-label={t('page.legend')} sx={{ listStyle: 'none', p: 0, m: 0, mt: 2, flexWrap: 'wrap', columnGap: 2, rowGap: 0.5 }}>
          {EVENT_TYPES.map(({ type, color }) => (
            <Box component="li" key={type} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
              <Box aria-hidden sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: eventColors(color, theme.palette.mode).main }} />
              <Typography variant="body2" color="text.secondary">
                {typeLabel(t, type)}
              </Typography>
            </Box>
          ))}
        </Stack>
      </Paper>

      <FeedPanel />

      <EventDialog
        initial={creating}
        tz={tz}
        onClose={() => setCreating(null)}
        onSaved={() => {
          setCreating(null);
          setSaved(t('form.saved'));
        }}
      />
      <FlashMessage message={saved ? flash(saved).flash : null} onClose={() => setSaved(null)} />
    </HubPage>
  );
}
