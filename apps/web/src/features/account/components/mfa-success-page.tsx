import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';

/** '2FA Registration': shown after an e-mail second factor is registered, with the spec's Log In button. */
export default function MfaSuccessPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation('account');
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'start center', px: 2, py: { xs: 3, md: 6 } }}>
      <title>{`${t('mfaSuccess.pageTitle')} | ${org.org_name}`}</title>
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 480, p: { xs: 3, sm: 5 }, borderRadius: 3, textAlign: 'center' }}>
        <Typography variant="h1" gutterBottom>
          {t('mfaSuccess.title')}
        </Typography>
        <Typography sx={{ mb: 1 }}>{t('mfaSuccess.text')}</Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('mfaSuccess.enabled')}
        </Typography>
        <Button component={RouterLink} to={paths.login(clientId)} variant="contained" size="large" fullWidth>
          {t('mfaSuccess.login')}
        </Button>
        <Link component={RouterLink} to={paths.profile(clientId, 3)} sx={{ display: 'inline-block', mt: 2 }}>
          {t('mfaSuccess.settings')}
        </Link>
      </Paper>
    </Box>
  );
}
