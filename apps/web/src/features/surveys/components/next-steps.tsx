import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useNextSteps } from '../hooks/use-next-steps';

/** What the organisation offers next (only the active features): a telehealth visit, a chat, the help area. */
export function NextSteps({ level }: { level: number }) {
  const { t } = useTranslation('surveys');
  const steps = useNextSteps();
  const headingId = useId();
  const offers = [
    steps.telehealth && { key: 'telehealth', to: steps.telehealth },
    steps.chat && { key: 'chat', to: steps.chat },
    steps.help && { key: 'help', to: steps.help },
  ].filter((s): s is { key: string; to: string } => Boolean(s));
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('result.nextTitle')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t(level >= 2 ? 'result.nextTextConcern' : 'result.nextText')}</Typography>
      {offers.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fit, minmax(220px, 1fr))' } }}>
          {offers.map((offer) => (
            <li key={offer.key}>
              <Button component={RouterLink} to={offer.to} variant="outlined" fullWidth sx={{ py: 1.5, flexDirection: 'column', alignItems: 'flex-start', textAlign: 'left', textTransform: 'none' }}>
                <Box component="span" sx={{ fontWeight: 700, fontSize: '1rem' }}>
                  {t(`result.next.${offer.key}.title`)}
                </Box>
                <Box component="span" sx={{ color: 'text.secondary', fontSize: '0.9rem' }}>
                  {t(`result.next.${offer.key}.text`)}
                </Box>
              </Button>
            </li>
          ))}
        </Box>
      )}
    </Box>
  );
}
