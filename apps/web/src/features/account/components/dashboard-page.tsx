import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UserAvatar } from '../../../components/user-avatar';
import { useDashboardWidgets, widgetComponent } from '../../../lib/dashboard-widgets';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useSignedInUser } from '../hooks/use-signed-in-user';

/**
 * The signed-in landing page: a greeting, then the widgets of the features the member's
 * organisation has active (the first-run wizard, welcome messages, the account's protection,
 * and what later features register: appointments, records, surveys).
 */
export default function DashboardPage() {
  const { org } = useOrganizationContext();
  const user = useSignedInUser();
  const { t } = useTranslation('account');
  const widgets = useDashboardWidgets();

  return (
    <Box sx={{ width: '100%', maxWidth: 960, mx: 'auto', px: { xs: 2, sm: 4 }, py: { xs: 3, md: 5 } }}>
      <title>{`${t('dashboard.pageTitle')} | ${org.org_name}`}</title>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 4 }}>
        <UserAvatar user={user} alt="" size={56} />
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {t('dashboard.greeting', { name: user.first_name })}
          </Typography>
          <Typography color="text.secondary">{t('dashboard.subtitle', { orgName: org.org_name })}</Typography>
        </Box>
      </Stack>
      <Stack spacing={3}>
        {widgets.map((widget) => {
          const Widget = widgetComponent(widget);
          return (
            <Suspense key={widget.id} fallback={null}>
              <Widget />
            </Suspense>
          );
        })}
      </Stack>
    </Box>
  );
}
