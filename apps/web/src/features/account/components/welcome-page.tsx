import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSignedInUser } from '../hooks/use-signed-in-user';
import WelcomeMessagesWidget from './widgets/welcome-messages-widget';
import WizardWidget from './widgets/wizard-widget';

/** The welcome page: the organisation's welcome messages and the first steps, then on to the dashboard. */
export default function WelcomePage() {
  const { org, clientId } = useOrganizationContext();
  const user = useSignedInUser();
  const { t } = useTranslation('account');
  return (
    <Box sx={{ width: '100%', maxWidth: 960, mx: 'auto', px: { xs: 2, sm: 4 }, py: { xs: 3, md: 5 } }}>
      <title>{`${t('welcome.pageTitle')} | ${org.org_name}`}</title>
      <Typography variant="h1" sx={{ mb: 1 }}>
        {t('welcome.title', { name: user.first_name, orgName: org.org_name })}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        {t('welcome.text')}
      </Typography>
      <Stack spacing={3}>
        <WizardWidget />
        <WelcomeMessagesWidget />
        <Box>
          <Button component={RouterLink} to={paths.dashboard(clientId)} variant="contained">
            {t('welcome.toDashboard')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
