import { useId } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { AVAILABILITY_HORIZON_DAYS, specialityIn } from '@healthbook/shared/appointments';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { addDays, todayIn, userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useUpcomingAppointments } from '../api/list-appointments';
import { ProviderSearchForm } from './provider-search-form';

const STEPS = ['choose', 'reason', 'confirm'] as const;

/** /health-help/telehealth — telehealth's landing page: search providers by speciality and day, how it works, the patient's upcoming appointments. */
export default function TelehealthPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation('telehealth');
  const navigate = useNavigate();
  const searchId = useId();
  const stepsId = useId();

  return (
    <HubPage pageTitle={t('landing.pageTitle')} intro={t('landing.intro', { orgName: org.org_name })} back={{ to: paths.help(clientId), label: t('landing.backToHelp') }}>
      <Paper component="section" aria-labelledby={searchId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 4, borderRadius: 3 }}>
        <Typography variant="h2" id={searchId} sx={{ mb: 2 }}>
          {t('landing.searchTitle')}
        </Typography>
        <ProviderSearchForm
          initial={{ speciality: '', date: '' }}
          onSearch={({ speciality, date }) => void navigate(paths.providerList(clientId, { selectedProvider: speciality || undefined, selectedDate: date || undefined }))}
        />
        <Link component={RouterLink} to={paths.providerList(clientId)} sx={{ display: 'inline-block', mt: 2 }}>
          {t('landing.browseAll')}
        </Link>
      </Paper>

      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, alignItems: 'start' }}>
        <Box component="section" aria-labelledby={stepsId}>
          <Typography variant="h2" id={stepsId} sx={{ mb: 1.5 }}>
            {t('landing.stepsTitle')}
          </Typography>
          <Box component="ol" sx={{ pl: 3, m: 0, display: 'grid', gap: 1 }}>
            {STEPS.map((step) => (
              <li key={step}>
                <Typography>{t(`landing.steps.${step}`)}</Typography>
              </li>
            ))}
          </Box>
        </Box>
        <UpcomingAppointments />
      </Box>
    </HubPage>
  );
}

function UpcomingAppointments() {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('telehealth');
  const headingId = useId();
  const tz = userTimeZone();
  const today = todayIn(tz);
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', tz);
  const appointments = useUpcomingAppointments({ start: today, end: addDays(today, AVAILABILITY_HORIZON_DAYS), tz, status: 'booked' });
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1.5 }}>
        {t('landing.upcomingTitle')}
      </Typography>
      {appointments.isError ? (
        <Typography color="text.secondary">{t('loadFailed')}</Typography>
      ) : appointments.data?.length === 0 ? (
        <Typography color="text.secondary">{t('landing.noUpcoming')}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {(appointments.data ?? []).map((a) => (
            <Box component="li" key={a.appointment_id} sx={{ display: 'flex', gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
              <Box sx={{ minWidth: 0 }}>
                <Typography sx={{ fontWeight: 600 }}>{format.dateTime(a.start_time)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {[a.provider_name, specialityIn(i18n.resolvedLanguage ?? 'en', a.provider_speciality, a.provider_speciality_el)].filter(Boolean).join(' · ')}
                </Typography>
              </Box>
              <Button component={RouterLink} to={paths.eventDetails(clientId, a.availability_det_id)} size="small" aria-label={t('landing.detailsOf', { when: format.dateTime(a.start_time) })}>
                {t('landing.details')}
              </Button>
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
