import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Snackbar from '@mui/material/Snackbar';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { FeatureSetting } from '@healthbook/shared/contracts/features';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { FEATURE_STATUSES, type FeatureStatus } from '@healthbook/shared/features';
import { FeatureIcon } from '../../../components/feature-icon';
import { HubPage } from '../../../components/hub-page';
import { useSession } from '../../../lib/auth';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useOrganizations } from '../api/get-organizations';
import { useFeatureSettings } from '../api/get-feature-settings';
import { useUpdateFeatureStatus } from '../api/update-feature-status';
import { HelpContacts } from './help-contacts';
import { VideoChannel } from './video-channel';

const STATUS_COLOR = { active: 'success', inactive: 'default', disabled: 'error' } as const;

/**
 * Administration → Features and settings: what each feature is for the organisation's members
 * (active, "Coming Soon!", or hidden and refused), the organisation's video channel, and its
 * help and crisis contacts.
 * Organisation admins manage their own organisation; super admins choose any.
 */
export default function FeatureSettingsPage() {
  const { org } = useOrganizationContext();
  const { user } = useSession();
  const { t } = useTranslation('admin');
  const superadmin = user?.is_superadmin === true;
  const organizations = useOrganizations(superadmin);
  // Opened from an organisation's page (super admins): that organisation first.
  const [search] = useSearchParams();
  const asked = Number(search.get('organization'));
  const [organizationId, setOrganizationId] = useState(superadmin && Number.isInteger(asked) && asked > 0 ? asked : org.org);
  const chosen: OrganizationDetail = organizations.data?.find((o) => o.org === organizationId) ?? org;

  return (
    <HubPage pageTitle={t('features.pageTitle')} intro={t('features.intro')}>

      {superadmin && (
        <TextField
          select
          label={t('organization')}
          value={organizations.data ? organizationId : org.org}
          onChange={(e) => setOrganizationId(Number(e.target.value))}
          sx={{ mb: 3, minWidth: 260 }}
        >
          {(organizations.data ?? [org]).map((o) => (
            <MenuItem key={o.org} value={o.org}>
              {o.org_name}
            </MenuItem>
          ))}
        </TextField>
      )}

      <FeatureList organization={chosen} />
      <VideoChannel key={chosen.org} organization={chosen} />
      <HelpContacts key={`contacts-${chosen.org}`} organization={chosen} />
    </HubPage>
  );
}

function FeatureList({ organization }: { organization: OrganizationDetail }) {
  const { t, i18n } = useTranslation('admin');
  const settings = useFeatureSettings(organization.org, i18n.resolvedLanguage ?? 'en');
  const update = useUpdateFeatureStatus();
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const headingId = useId();

  const change = async (feature: FeatureSetting, status: FeatureStatus) => {
    try {
      await update.mutateAsync({ featureId: feature.id, organizationId: organization.org, status });
      setNotice({ severity: 'success', text: t('features.saved', { name: feature.display_name }) });
    } catch (error) {
      setNotice({ severity: 'error', text: applyServerErrors(error, { fallback: t('features.saveFailed') }) ?? t('features.saveFailed') });
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ borderRadius: 3, mb: 4 }}>
      <Box sx={{ p: { xs: 2, sm: 3 }, pb: 1 }}>
        <Typography id={headingId} variant="h2">
          {t('features.listTitle', { orgName: organization.org_name })}
        </Typography>
        <Typography color="text.secondary" variant="body2" sx={{ mt: 0.5 }}>
          {t('features.legend')}
        </Typography>
      </Box>
      {settings.isPending && (
        <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
      {settings.isError && (
        <Alert severity="error" sx={{ m: 2 }}>
          {t('features.loadFailed')}
        </Alert>
      )}
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }}>
        {settings.data?.map((feature) => (
          <Box
            component="li"
            key={feature.id}
            sx={{
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: 1.5,
              px: { xs: 2, sm: 3 },
              py: 1.5,
              borderTop: 1,
              borderColor: 'divider',
            }}
          >
            <FeatureIcon name={feature.icon_name} color="action" aria-hidden />
            <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
              <Typography sx={{ fontWeight: 600 }}>{feature.display_name}</Typography>
              <Typography variant="body2" color="text.secondary">
                {feature.core ? t('features.core') : !feature.available ? t('features.notYet') : t(`features.means.${feature.configured_status}`)}
              </Typography>
            </Box>
            <Chip
              size="small"
              variant="outlined"
              color={STATUS_COLOR[feature.feature_status]}
              label={t('features.membersSee', { status: t(`features.status.${feature.feature_status}`) })}
            />
            <TextField
              select
              size="small"
              value={feature.configured_status}
              disabled={feature.core || update.isPending}
              onChange={(e) => void change(feature, e.target.value as FeatureStatus)}
              sx={{ width: 210, flexShrink: 0 }}
              // Named for screen readers by the feature; the row shows its name already.
              slotProps={{ select: { SelectDisplayProps: { 'aria-label': t('features.statusLabel', { name: feature.display_name }) } } }}
            >
              {FEATURE_STATUSES.map((status) => (
                <MenuItem key={status} value={status}>
                  {t(`features.status.${status}`)}
                </MenuItem>
              ))}
            </TextField>
          </Box>
        ))}
      </Box>
      <Snackbar open={notice !== null} autoHideDuration={5000} onClose={() => setNotice(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        {notice ? (
          <Alert severity={notice.severity} variant="filled" onClose={() => setNotice(null)}>
            {notice.text}
          </Alert>
        ) : undefined}
      </Snackbar>
    </Paper>
  );
}
