import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';

export default function NotFoundPage() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation();
  return (
    <Box sx={{ flex: 1, display: 'grid', placeItems: 'center', px: 2, py: 8, textAlign: 'center' }}>
      <title>{`${t('notFound.pageTitle')} | ${org.org_name}`}</title>
      <Box sx={{ maxWidth: 520 }}>
        <Typography component="p" sx={{ fontSize: 72, fontWeight: 800, color: 'primary.main', lineHeight: 1 }} aria-hidden>
          404
        </Typography>
        <Typography variant="h1" sx={{ mt: 2 }} gutterBottom>
          {t('notFound.title')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 4 }}>
          {t('notFound.text')}
        </Typography>
        <Button component={RouterLink} to={paths.login(clientId)} variant="contained" size="large">
          {t('notFound.action')}
        </Button>
      </Box>
    </Box>
  );
}
