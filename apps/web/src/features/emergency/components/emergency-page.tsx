import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { CallButton, crisisLineName } from '../../../components/call-button';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';

/**
 * Emergency: the organisation's emergency number first, large, then its crisis lines (both set
 * by its administrators, Administration → help and crisis contacts), each a tap to call.
 */
export default function EmergencyPage() {
  const { org } = useOrganizationContext();
  const { t, i18n } = useTranslation('emergency');
  const language = i18n.resolvedLanguage === 'el' ? 'el' : 'en';
  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro')} maxWidth={720}>
      <Paper variant="outlined" component="section" aria-labelledby="emergency-now" sx={{ p: { xs: 2.5, sm: 3 }, mb: 3, borderRadius: 3, borderWidth: 2, borderColor: 'error.main' }}>
        <Typography variant="h2" id="emergency-now" sx={{ mb: 1 }}>
          {t('now.title')}
        </Typography>
        <Typography sx={{ mb: 2 }}>{t('now.text')}</Typography>
        <CallButton number={org.emergency_number} variant="contained" color="error" size="large">
          {t('now.call', { number: org.emergency_number })}
        </CallButton>
      </Paper>
      <Paper variant="outlined" component="section" aria-labelledby="emergency-crisis" sx={{ p: { xs: 2.5, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" id="emergency-crisis" sx={{ mb: 1 }}>
          {t('crisis.title')}
        </Typography>
        <Typography sx={{ mb: 2 }}>{t('crisis.text')}</Typography>
        {org.crisis_lines.length > 0 ? (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
            {org.crisis_lines.map((line) => (
              <li key={line.number}>
                <CallButton number={line.number} variant="outlined">
                  {t('crisis.call', { name: crisisLineName(line, language), number: line.number })}
                </CallButton>
              </li>
            ))}
          </Box>
        ) : (
          <Typography color="text.secondary">{t('crisis.none', { number: org.emergency_number })}</Typography>
        )}
      </Paper>
    </HubPage>
  );
}
