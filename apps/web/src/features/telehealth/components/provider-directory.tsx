import { useEffect, useRef } from 'react';
import { Link as RouterLink, Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import EventAvailable from '@mui/icons-material/EventAvailable';
import type { Provider } from '@healthbook/shared/contracts/appointments';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths, type TelehealthQuery } from '../../../lib/paths';
import { dayOf, userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useProviders } from '../api/list-providers';
import { useTelehealthQuery } from '../telehealth-query';
import { ProviderSearchForm } from './provider-search-form';
import { ProviderSummary } from './provider-summary';

/**
 * The providers with free times (telehealth/provider-list, and provider-details without a
 * provider): searched by speciality (selectedProvider) and day (selectedDate), each with its
 * next free time and a way to its free times. loadDetails with selectedProviderDetailsId opens
 * that provider's details; coming back, the provider last opened has the focus.
 */
export function ProviderDirectory() {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('telehealth');
  const navigate = useNavigate();
  const query = useTelehealthQuery();
  const tz = userTimeZone();
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', tz);
  const providers = useProviders({ speciality: query.selectedProvider, date: query.selectedDate, tz });
  const focused = useRef<HTMLAnchorElement | null>(null);
  const focusId = query.selectedProviderDetailsId;

  useEffect(() => {
    if (providers.data && focusId) focused.current?.focus();
  }, [providers.data, focusId]);

  if (query.loadDetails && focusId) return <Navigate replace to={paths.providerDetails(clientId, { ...query, loadDetails: undefined })} />;

  const search = (next: TelehealthQuery) => void navigate(paths.providerList(clientId, next), { replace: true });
  const detailsOf = (provider: Provider): TelehealthQuery => ({
    selectedProvider: query.selectedProvider,
    selectedProviderDetailsId: provider.provider_id,
    selectedDate: query.selectedDate ?? (provider.next_available ? dayOf(provider.next_available, tz) : undefined),
  });
  const count = providers.data?.length ?? 0;

  return (
    <HubPage pageTitle={t('list.pageTitle')} intro={t('list.intro', { tz })} back={{ to: paths.telehealth(clientId), label: t('list.backToTelehealth') }}>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 3, borderRadius: 3 }}>
        <ProviderSearchForm
          key={`${query.selectedProvider ?? ''}|${query.selectedDate ?? ''}`}
          initial={{ speciality: query.selectedProvider ?? '', date: query.selectedDate ?? '' }}
          onSearch={({ speciality, date }) => search({ selectedProvider: speciality || undefined, selectedDate: date || undefined })}
        />
      </Paper>

      {providers.isError && (
        <Alert severity="error" action={<Button onClick={() => void providers.refetch()}>{t('retry')}</Button>} sx={{ mb: 2 }}>
          {t('loadFailed')}
        </Alert>
      )}
      {providers.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {providers.data && (
        <>
          <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {query.selectedDate ? t('list.resultsOn', { count, day: format.day(query.selectedDate) }) : t('list.results', { count })}
          </Typography>
          {count === 0 ? (
            <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
              <Typography sx={{ mb: 1 }}>{t('list.empty')}</Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {t('list.emptyHint')}
              </Typography>
              {(query.selectedProvider || query.selectedDate) && <Button onClick={() => search({})}>{t('list.clear')}</Button>}
            </Paper>
          ) : (
            <Box component="ul" aria-label={t('list.label')} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2 }}>
              {providers.data.map((provider) => {
                const to = paths.providerDetails(clientId, detailsOf(provider));
                return (
                  <Paper component="li" key={provider.provider_id} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, display: 'flex', gap: 2, flexDirection: { xs: 'column', sm: 'row' }, alignItems: { sm: 'center' } }}>
                    <Box sx={{ flex: 1, minWidth: 0 }}>
                      <ProviderSummary
                        provider={provider}
                        headingLevel="h2"
                        name={
                          <Link component={RouterLink} to={to} ref={provider.provider_id === focusId ? focused : undefined} underline="hover" color="inherit">
                            {provider.provider_name}
                          </Link>
                        }
                      />
                      <Typography variant="body2" sx={{ mt: 1, display: 'flex', alignItems: 'center', gap: 0.75 }}>
                        <EventAvailable fontSize="small" color={provider.next_available ? 'primary' : 'disabled'} aria-hidden />
                        {provider.next_available ? t('provider.nextAvailable', { when: format.dateTime(provider.next_available) }) : t('provider.noneAvailable')}
                      </Typography>
                    </Box>
                    <Button component={RouterLink} to={to} variant="outlined" aria-label={t('list.viewTimesOf', { name: provider.provider_name })} sx={{ flexShrink: 0, alignSelf: { xs: 'stretch', sm: 'center' } }}>
                      {t('list.viewTimes')}
                    </Button>
                  </Paper>
                );
              })}
            </Box>
          )}
        </>
      )}
    </HubPage>
  );
}
