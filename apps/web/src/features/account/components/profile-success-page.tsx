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

/** After the profile (and its questions) is saved: a confirmation, and where to go next. */
export default function ProfileSuccessPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation('account');
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: { xs: 4, md: 8 } }}>
      <title>{`${t('profileSuccess.pageTitle')} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 520, p: { xs: 3, sm: 5 }, borderRadius: 3, textAlign: 'center' }}>
        <CheckCircleIcon color="success" sx={{ fontSize: 56, mb: 1 }} aria-hidden />
        <Typography variant="h1" sx={{ mb: 1 }}>
          {t('profileSuccess.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('profileSuccess.text')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'center' }}>
          <Button component={RouterLink} to={paths.dashboard(clientId)} variant="contained">
            {t('profileSuccess.toDashboard')}
          </Button>
          <Button component={RouterLink} to={paths.profile(clientId)} variant="outlined">
            {t('profileSuccess.toProfile')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
