import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import LockOutlined from '@mui/icons-material/LockOutlined';
import CreditCard from '@mui/icons-material/CreditCard';
import Psychology from '@mui/icons-material/Psychology';
import AddLink from '@mui/icons-material/AddLink';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import { CATEGORIES } from '@healthbook/shared/records/categories';
import { formatMedicalDate } from '@healthbook/shared/records/medical-date';
import { FeatureIcon } from '../../../components/feature-icon';
import { ShareLinkButton } from '../../../components/share-link-button';
import { HubPage } from '../../../components/hub-page';
import { useHubFeatures } from '../../../lib/hub-features';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useRecordSummary } from '../api/get-record-summary';
import { categoryName, useRecordText } from '../../../lib/record-text';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';
import { ExportButton } from './export-dialog';

const ALL_CATEGORIES = CATEGORIES.map((c) => c.key);

/** /health-record: every category with how many records it holds and its latest date, and the records changed last. */
export default function RecordsOverviewPage() {
  const { clientId, org } = useOrganizationContext();
  const { t, locale } = useRecordText();
  // The mental-health assessments are the surveys feature's page, linked from here while it is on.
  // So are the insurance cards (features/insurance): "shown in the record" while Insurance is on.
  const { readOnly, writes } = useRecordAccess();
  const features = useHubFeatures(org.org, locale);
  const surveysOn = features.status('surveys') === 'active' && !readOnly;
  const insuranceOn = features.status('insurance') === 'active';
  const summary = useRecordSummary(null, locale);
  const byCategory = new Map(summary.data?.categories.map((c) => [c.category, c]));

  return (
    <HubPage pageTitle={t('healthRecords:pageTitle')} intro={t('healthRecords:intro')} maxWidth={1100}>
      {readOnly && <ReadOnlyNotice />}
      {summary.isError && <Alert severity="error">{t('healthRecords:loadFailed')}</Alert>}
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 1.5, flexWrap: 'wrap' }}>
        <Typography variant="h2">{t('healthRecords:categoriesTitle')}</Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <ShareLinkButton />
          <ExportButton categories={ALL_CATEGORIES} />
          <Button component={RouterLink} to={paths.recordTransfer(clientId)} variant="outlined" startIcon={<SwapHoriz />}>
            {t('healthRecords:fhirLink')}
          </Button>
          {writes.connections && (
            <Button component={RouterLink} to={paths.sourceConnections(clientId)} variant="outlined" startIcon={<AddLink />}>
              {t('healthRecords:connectionsLink')}
            </Button>
          )}
          {surveysOn && (
            <Button component={RouterLink} to={paths.assessments(clientId)} variant="outlined" startIcon={<Psychology />}>
              {t('healthRecords:assessmentsLink')}
            </Button>
          )}
          {insuranceOn && (
            <Button component={RouterLink} to={paths.insurance(clientId)} variant="outlined" startIcon={<CreditCard />}>
              {t('healthRecords:insuranceLink')}
            </Button>
          )}
        </Box>
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 4, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' } }}>
        {CATEGORIES.map((category) => {
          const entry = byCategory.get(category.key);
          const count = entry?.count ?? 0;
          return (
            <Box component="li" key={category.key}>
              <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }}>
                <CardActionArea component={RouterLink} to={paths.recordList(clientId, category.key)} sx={{ p: 2, height: '100%', display: 'flex', alignItems: 'flex-start', justifyContent: 'flex-start', gap: 1.5 }}>
                  <FeatureIcon name={category.icon} color="primary" aria-hidden sx={{ mt: 0.25 }} />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography component="h3" sx={{ fontWeight: 600 }}>
                      {categoryName(t, category.key, true)}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {summary.isPending ? '…' : count ? t('healthRecords:recordCount', { count }) : t('healthRecords:noRecords')}
                    </Typography>
                    {entry?.latest_date && (
                      <Typography variant="body2" color="text.secondary">
                        {t('healthRecords:latest', { date: formatMedicalDate({ date: entry.latest_date, part: entry.latest_date_part ?? 'day' }, locale, t('records:inThePast')) })}
                      </Typography>
                    )}
                  </Box>
                </CardActionArea>
              </Card>
            </Box>
          );
        })}
      </Box>

      <Paper variant="outlined" component="section" aria-labelledby="recent-records" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
        <Typography id="recent-records" variant="h2" sx={{ mb: 1 }}>
          {t('healthRecords:recentTitle')}
        </Typography>
        {summary.isPending && <CircularProgress size={24} aria-label={t('healthRecords:recentTitle')} />}
        {summary.data && summary.data.recent.length === 0 && <Typography color="text.secondary">{t('healthRecords:recentEmpty')}</Typography>}
        {summary.data && summary.data.recent.length > 0 && (
          <List disablePadding>
            {summary.data.recent.map((r) => {
              const category = CATEGORIES.find((c) => c.key === r.category);
              const date = r.date_part ? formatMedicalDate({ date: r.date, part: r.date_part }, locale, t('records:inThePast')) : '';
              return (
                <li key={r.id}>
                  <ListItemButton component={RouterLink} to={paths.recordDetail(clientId, r.category, r.id)} sx={{ borderRadius: 2 }}>
                    <ListItemIcon sx={{ minWidth: 40 }}>
                      <FeatureIcon name={category?.icon ?? 'MonitorHeart'} aria-hidden />
                    </ListItemIcon>
                    <ListItemText primary={r.title || t('healthRecords:untitled')} secondary={[categoryName(t, r.category), date].filter(Boolean).join(' · ')} />
                    {r.private && <Chip size="small" icon={<LockOutlined />} label={t('healthRecords:private')} variant="outlined" />}
                  </ListItemButton>
                </li>
              );
            })}
          </List>
        )}
      </Paper>
    </HubPage>
  );
}
