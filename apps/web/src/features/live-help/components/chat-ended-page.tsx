import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';

/** chat/end-secure-chat-screen: the chat has ended. Thanks, and where to go next. */
export default function ChatEndedPage() {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('liveHelp');
  return (
    <HubPage pageTitle={t('ended.pageTitle')} title={null} maxWidth={640}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, borderRadius: 3, textAlign: 'center' }}>
        <CheckCircleOutline color="success" sx={{ fontSize: 56, mb: 1 }} aria-hidden />
        <Typography variant="h1" sx={{ mb: 1.5 }}>
          {t('ended.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('ended.text')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center' }}>
          <Button component={RouterLink} to={paths.peerCoaching(clientId)} variant="contained">
            {t('ended.another')}
          </Button>
          <Button component={RouterLink} to={paths.chatHistory(clientId)} variant="outlined">
            {t('ended.history')}
          </Button>
          <Button component={RouterLink} to={paths.dashboard(clientId)} variant="text">
            {t('ended.dashboard')}
          </Button>
        </Stack>
      </Paper>
    </HubPage>
  );
}
