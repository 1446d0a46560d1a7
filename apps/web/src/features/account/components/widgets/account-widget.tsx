import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../../../../lib/organization-context';
import { paths } from '../../../../lib/paths';
import { useSignedInUser } from '../../hooks/use-signed-in-user';

/** Dashboard widget: the account's protection (second factor) and the way to the settings. */
export default function AccountWidget() {
  const { clientId } = useOrganizationContext();
  const user = useSignedInUser();
  const { t } = useTranslation('account');
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
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
  );
}
