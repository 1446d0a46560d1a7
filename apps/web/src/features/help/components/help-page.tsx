import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { FeatureKey } from '@healthbook/shared/features';
import { LeaveSiteDialog } from '../../../components/dialogs/leave-site-dialog';
import { HubPage } from '../../../components/hub-page';
import { FeatureIcon } from '../../../components/feature-icon';
import { saveOperation, useHubFeatures } from '../../../lib/hub-features';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { HelpArticles } from './help-articles';
import { HelpContact } from './help-contact';

/**
 * The ways to get help the hub offers, each shown while its feature is not disabled; `title`
 * names a way other than by its feature's name (Peer Coaching is a way into Live Help).
 */
const WAYS: ReadonlyArray<{ key: string; feature: FeatureKey; text: string; title?: string }> = [
  { key: 'teleconsultation', feature: 'teleconsultation', text: 'ways.teleconsultation' },
  { key: 'live-help', feature: 'live-help', text: 'ways.liveHelp' },
  { key: 'peer-coaching', feature: 'live-help', text: 'ways.peerCoaching', title: 'ways.peerCoachingTitle' },
  { key: 'symptom-checker', feature: 'symptom-checker', text: 'ways.symptomChecker' },
  { key: 'surveys', feature: 'surveys', text: 'ways.surveys' },
];

/**
 * The help hub (healthhelp, health-help): what to do in an emergency (this is not the place),
 * the organisation's help articles with their search, the ways to get help it offers (each only
 * when its feature is on; "Coming Soon!" while its page is not there yet), its contact details
 * and form, help with the account, and the organisation's videos.
 */
export default function HelpPage() {
  const { org, clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('help');
  const features = useHubFeatures(org.org, i18n.resolvedLanguage ?? 'en');
  const [leaving, setLeaving] = useState<string | null>(null);
  const ways = WAYS.filter((w) => features.status(w.feature) !== 'disabled');
  const videos = features.entry('videos');
  const showVideos = org.video_channel_url && videos?.feature_status === 'active';
  const language = i18n.resolvedLanguage === 'el' ? 'el' : 'en';
  const { hash } = useLocation();
  // "Write to us" links (an article, the assistant) come to #contact: bring the form into view.
  useEffect(() => {
    if (hash === '#contact') document.getElementById('contact')?.scrollIntoView({ block: 'start' });
  }, [hash]);

  return (
    <HubPage pageTitle={t('pageTitle')} title={t('title', { shortName: org.org_short_name })} intro={t('intro')}>

      <Paper role="note" variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 4, borderRadius: 3, borderColor: 'error.main' }}>
        <Typography variant="h2" sx={{ mb: 0.5 }}>
          {t('emergency.title')}
        </Typography>
        <Typography>{t('emergency.text', { number: org.emergency_number })}</Typography>
        {org.crisis_lines.map((line) => (
          <Typography key={line.number} sx={{ mt: 1 }}>
            {t('emergency.crisis')}{' '}
            <Link href={`tel:${line.number.replace(/\s+/g, '')}`} sx={{ fontWeight: 600 }}>
              {line.number}
            </Link>{' '}
            ({line.name[language]})
          </Typography>
        ))}
      </Paper>

      <HelpArticles />

      <Typography variant="h2" sx={{ mb: 1.5 }}>
        {t('ways.title')}
      </Typography>
      {ways.length === 0 ? (
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {t('ways.none')}
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, mb: 4 }}>
          {ways.map((way) => {
            const entry = features.entry(way.feature)!;
            const route = entry.feature_status === 'active' ? entry.feature_route : null;
            const body = (
              <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
                <FeatureIcon name={entry.icon_name} color={route ? 'primary' : 'disabled'} aria-hidden />
                <Box sx={{ minWidth: 0 }}>
                  <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 0.5, flexWrap: 'wrap' }}>
                    <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 600 }}>
                      {way.title ? t(way.title) : entry.display_name}
                    </Typography>
                    {!route && <Chip size="small" label={t('comingSoon')} />}
                  </Stack>
                  <Typography variant="body2" color="text.secondary">
                    {t(way.text)}
                  </Typography>
                </Box>
              </CardContent>
            );
            return (
              <Card key={way.key} variant="outlined" sx={{ borderRadius: 3 }}>
                {route ? (
                  <CardActionArea component={RouterLink} to={paths.feature(clientId, route)} onClick={() => saveOperation(org.org, entry.id)}>
                    {body}
                  </CardActionArea>
                ) : (
                  <Tooltip title={t('comingSoon')} describeChild>
                    <Box tabIndex={0} aria-disabled="true" sx={{ opacity: 0.75 }}>
                      {body}
                    </Box>
                  </Tooltip>
                )}
              </Card>
            );
          })}
        </Box>
      )}

      <HelpContact />

      <Typography variant="h2" sx={{ mb: 1.5 }}>
        {t('account.title')}
      </Typography>
      <Stack component="ul" spacing={1} sx={{ pl: 2.5, mb: 4 }}>
        <li>
          <Link component={RouterLink} to={paths.profile(clientId, 3)}>
            {t('account.security')}
          </Link>
        </li>
        <li>
          <Link component={RouterLink} to={paths.profile(clientId)}>
            {t('account.profile')}
          </Link>
        </li>
        <li>
          <Link component={RouterLink} to={paths.privacy(clientId)}>
            {t('account.privacy')}
          </Link>
        </li>
        <li>
          <Link component={RouterLink} to={paths.terms(clientId)}>
            {t('account.terms')}
          </Link>
        </li>
      </Stack>

      {showVideos && (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <Typography variant="h2" sx={{ mb: 0.5 }}>
            {t('videos.title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t('videos.text', { orgName: org.org_name })}
          </Typography>
          <Button variant="outlined" onClick={() => setLeaving(org.video_channel_url)}>
            {t('videos.open')}
          </Button>
        </Paper>
      )}
      <LeaveSiteDialog url={leaving} onClose={() => setLeaving(null)} onOpened={() => videos && saveOperation(org.org, videos.id)} />
    </HubPage>
  );
}
