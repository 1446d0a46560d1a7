import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { UserAvatar } from '../../../components/user-avatar';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useWelcomeMessages } from '../api/welcome-messages';
import { useSignedInUser } from '../hooks/use-signed-in-user';
import { WizardCard } from './wizard-card';

/** The signed-in landing page: a greeting, the first-run wizard and the organisation's welcome messages. */
export default function DashboardPage() {
  const { org, clientId } = useOrganizationContext();
  const user = useSignedInUser();
  const { t, i18n } = useTranslation('account');
  const messages = useWelcomeMessages(user.user_id, i18n.resolvedLanguage ?? 'en');
  const messagesId = useId();

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
        <WizardCard user={user} clientId={clientId} />

        {messages.data && messages.data.length > 0 && (
          <Box component="section" aria-labelledby={messagesId}>
            <Typography variant="h2" id={messagesId} sx={{ mb: 1.5 }}>
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
        )}

        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <Typography variant="h2" sx={{ mb: 1 }}>
            {t('dashboard.accountTitle')}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {user.has_mfa_enabled ? t('dashboard.mfaOn') : t('dashboard.mfaOff')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button component={RouterLink} to={paths.profile(clientId)} variant="outlined">
              {t('dashboard.openSettings')}
            </Button>
            {!user.has_mfa_enabled && (
              <Button component={RouterLink} to={paths.mfaRegister(clientId)} variant="contained">
                {t('security.add')}
              </Button>
            )}
          </Stack>
        </Paper>
      </Stack>
    </Box>
  );
}
