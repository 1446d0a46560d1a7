import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../../../../lib/organization-context';
import type { DashboardWidgetContext } from '../../../../lib/feature-module';
import { queryClient } from '../../../../lib/query-client';
import { useWelcomeMessages, welcomeMessagesQueryOptions } from '../../api/get-welcome-messages';
import { useSignedInUser } from '../../hooks/use-signed-in-user';

/** Dashboard widget: the organisation's welcome messages, in the reader's language. */
export default function WelcomeMessagesWidget() {
  const { org } = useOrganizationContext();
  const user = useSignedInUser();
  const { t, i18n } = useTranslation('account');
  const messages = useWelcomeMessages(user.user_id, i18n.resolvedLanguage ?? 'en');
  const headingId = useId();
  if (!messages.data?.length) return null;
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1.5 }}>
        {t('dashboard.messagesTitle', { orgName: org.org_name })}
      </Typography>
      <Stack spacing={2}>
        {messages.data.map((message) => (
          <Paper key={message.id} component="article" variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
            <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 600, mb: 0.5 }}>
              {message.title}
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-line' }}>{message.message}</Typography>
          </Paper>
        ))}
      </Stack>
    </Box>
  );
}

/** The messages, loaded with the dashboard (lib/dashboard-widgets.ts). */
export const prefetch = ({ userId, language }: DashboardWidgetContext) => queryClient.ensureQueryData(welcomeMessagesQueryOptions(userId, language));
