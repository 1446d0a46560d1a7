import { Suspense, use } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UserAvatar } from '../../../components/user-avatar';
import { useDashboardWidgets, widgetComponent, widgetsReady } from '../../../lib/dashboard-widgets';
import type { DashboardWidget, DashboardWidgetContext } from '../../../lib/feature-module';
import { DelayedLoader } from '../../../components/delayed-loader';
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
  const { t, i18n } = useTranslation('account');
  const widgets = useDashboardWidgets();
  const context = { language: i18n.resolvedLanguage ?? 'en', userId: user.user_id };

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
      <Suspense fallback={<DelayedLoader label={t('common:app.loading')} />}>
        <Widgets widgets={widgets} context={context} />
      </Suspense>
    </Box>
  );
}

/** The cards, drawn together once their modules and data are in (lib/dashboard-widgets.ts). */
function Widgets({ widgets, context }: { widgets: readonly DashboardWidget[]; context: DashboardWidgetContext }) {
  use(widgetsReady(widgets, context));
  return (
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
  );
}
