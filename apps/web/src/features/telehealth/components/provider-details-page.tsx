import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DateCalendar } from '@mui/x-date-pickers/DateCalendar';
import { AVAILABILITY_HORIZON_DAYS } from '@healthbook/shared/appointments';
import type { Provider } from '@healthbook/shared/contracts/appointments';
import { HubPage } from '../../../components/hub-page';
import { PickersProvider } from '../../../components/pickers-provider';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths, type TelehealthQuery } from '../../../lib/paths';
import { addDays, dayOf, dayjs, monthOf, todayIn, userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useAvailability } from '../api/get-availability';
import { useProvider } from '../api/get-provider';
import { groupSlotsByDay } from '../slots';
import { useTelehealthQuery } from '../telehealth-query';
import { ProviderDirectory } from './provider-directory';
import { ProviderSummary } from './provider-summary';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

/** /provider-details — a provider (selectedProviderDetailsId) and the free times of a day (selectedDate); without a provider, the search for one. */
export default function ProviderDetailsPage() {
  const query = useTelehealthQuery();
  if (!query.selectedProviderDetailsId) return <ProviderDirectory />;
  return <ProviderDetails key={query.selectedProviderDetailsId} id={query.selectedProviderDetailsId} query={query} />;
}

function ProviderDetails({ id, query }: { id: number; query: TelehealthQuery }) {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('telehealth');
  const provider = useProvider(id);
  const back = { to: paths.providerList(clientId, { selectedProvider: query.selectedProvider, selectedDate: query.selectedDate, selectedProviderDetailsId: id }), label: t('details.backToList') };

  if (provider.isError)
    return (
      <HubPage pageTitle={t('details.pageTitle')} back={back}>
        <Alert severity="error" action={provider.error instanceof ApiError && provider.error.status === 404 ? undefined : <Button onClick={() => void provider.refetch()}>{t('retry')}</Button>}>
          {provider.error instanceof ApiError && provider.error.status === 404 ? t('details.notFound') : t('loadFailed')}
        </Alert>
      </HubPage>
    );
  if (!provider.data)
    return (
      <HubPage pageTitle={t('details.pageTitle')} back={back}>
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      </HubPage>
    );
  return <ProviderPage provider={provider.data} query={query} back={back} />;
}

function ProviderPage({ provider, query, back }: { provider: Provider; query: TelehealthQuery; back: { to: string; label: string } }) {
  const { writes, readOnly } = useRecordAccess();
  const canWrite = writes.appointments;
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('telehealth');
  const navigate = useNavigate();
  const tz = userTimeZone();
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', tz);
  const today = todayIn(tz);
  const last = addDays(today, AVAILABILITY_HORIZON_DAYS);
  const nextDay = provider.next_available ? dayOf(provider.next_available, tz) : null;
  const day = query.selectedDate && query.selectedDate >= today && query.selectedDate <= last ? query.selectedDate : (nextDay ?? today);
  // The month shown by the calendar: its free slots mark the days that can be chosen.
  const [month, setMonth] = useState(() => monthOf(day).start);
  const shown = monthOf(month);
  const start = shown.start < today ? today : shown.start;
  const end = shown.end > last ? last : shown.end;
  const availability = useAvailability({ providerId: provider.provider_id, start, end, tz }, start <= end);
  const days = groupSlotsByDay(availability.data?.provider_id === provider.provider_id ? availability.data.slots : [], tz);
  const freeDays = new Set(days.map((d) => d.day));
  const slots = days.find((d) => d.day === day)?.slots ?? [];
  const withQuery = (next: TelehealthQuery): TelehealthQuery => ({ selectedProvider: query.selectedProvider, selectedProviderDetailsId: provider.provider_id, selectedDate: day, ...next });
  const choose = (next: string) => {
    void navigate(paths.providerDetails(clientId, withQuery({ selectedDate: next })), { replace: true });
    setMonth(monthOf(next).start);
  };
  const loading = availability.isPending || (availability.isPlaceholderData && availability.isFetching);

  return (
    <HubPage pageTitle={provider.provider_name} title={null} back={back} maxWidth={1000}>
      {readOnly && <ReadOnlyNotice chat />}
      <Box sx={{ display: 'grid', gap: 3 }}>
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <ProviderSummary provider={provider} headingLevel="h1" size={88} />
          {provider.biography && (
            <>
              <Typography variant="h2" sx={{ mt: 3, mb: 1, fontSize: '1.1rem' }}>
                {t('provider.biography')}
              </Typography>
              <Typography sx={{ whiteSpace: 'pre-line', maxWidth: '70ch' }}>{provider.biography}</Typography>
            </>
          )}
        </Paper>

        <Paper component="section" aria-labelledby="choose-time" variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <Typography variant="h2" id="choose-time" sx={{ mb: 0.5 }}>
            {t('details.chooseTime')}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('details.timeZone', { tz })}
          </Typography>
          <Box sx={{ display: 'grid', gap: { xs: 2, md: 4 }, gridTemplateColumns: { xs: '1fr', md: '320px minmax(0, 1fr)' }, alignItems: 'start' }}>
            <PickersProvider>
              <DateCalendar
                aria-label={t('details.calendar')}
                value={dayjs(day)}
                onChange={(next) => next?.isValid() && choose(next.format('YYYY-MM-DD'))}
                onMonthChange={(next) => setMonth(next.format('YYYY-MM-DD'))}
                minDate={dayjs(today)}
                maxDate={dayjs(last)}
                disablePast
                loading={loading}
                shouldDisableDate={(d) => !loading && !freeDays.has(d.format('YYYY-MM-DD'))}
                sx={{ mx: { xs: 'auto', md: 0 }, width: '100%', maxWidth: 320 }}
              />
            </PickersProvider>
            <Box aria-live="polite">
              <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600, mb: 1.5 }}>
                {t('details.freeTimes', { day: format.day(day) })}
              </Typography>
              {availability.isError ? (
                <Alert severity="error" action={<Button onClick={() => void availability.refetch()}>{t('retry')}</Button>}>
                  {t('loadFailed')}
                </Alert>
              ) : loading ? (
                <CircularProgress size={28} aria-label={t('loading')} />
              ) : slots.length === 0 ? (
                <>
                  <Typography color="text.secondary" sx={{ mb: 1.5 }}>
                    {t('details.noTimes')}
                  </Typography>
                  {nextDay && nextDay !== day && (
                    <Button variant="outlined" onClick={() => choose(nextDay)}>
                      {t('details.goToNext', { day: format.shortDay(nextDay) })}
                    </Button>
                  )}
                </>
              ) : (
                <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(104px, 1fr))' }}>
                  {slots.map((slot) => (
                    <li key={slot.availability_det_id}>
                      <Button
                        {...(canWrite ? { component: RouterLink, to: paths.confirmAppointment(clientId, withQuery({ slot: slot.availability_det_id })) } : { disabled: true })}
                        variant="outlined"
                        fullWidth
                        aria-label={t('details.slotLabel', { time: format.time(slot.start_time), day: format.day(day) })}
                      >
                        {format.time(slot.start_time)}
                      </Button>
                    </li>
                  ))}
                </Box>
              )}
            </Box>
          </Box>
        </Paper>
      </Box>
    </HubPage>
  );
}
