import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';

/** profile-questionnaire/thank-you: after the profile questions, thanks and where to go next. */
export default function ProfileQuestionnaireThankYouPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation('account');
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: { xs: 4, md: 8 } }}>
      <title>{`${t('profileQuestionnaireThanks.pageTitle')} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 520, p: { xs: 3, sm: 5 }, borderRadius: 3, textAlign: 'center' }}>
        <CheckCircleIcon color="success" sx={{ fontSize: 56, mb: 1 }} aria-hidden />
        <Typography variant="h1" sx={{ mb: 1 }}>
          {t('profileQuestionnaireThanks.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('profileQuestionnaireThanks.text')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center' }}>
          <Button component={RouterLink} to={paths.dashboard(clientId)} variant="contained">
            {t('profileQuestionnaireThanks.toDashboard')}
          </Button>
          <Button component={RouterLink} to={paths.profile(clientId)} variant="outlined">
            {t('profileQuestionnaireThanks.toProfile')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
