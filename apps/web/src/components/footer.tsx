import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { COPYRIGHT_YEAR } from '@healthbook/shared/constants';
import { paths } from '../lib/paths';

/** Footer of every page: About, Privacy Policy, Terms & Conditions, the tagline and the copyright. */
export function Footer({ clientId, orgName }: { clientId: string; orgName: string }) {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', py: 3, px: 2, mt: 'auto' }}>
      <Stack spacing={1} sx={{ textAlign: 'center', alignItems: 'center' }}>
        <Stack component="nav" aria-label={t('footer.label')} direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap', justifyContent: 'center' }}>
          <Link component={RouterLink} to={paths.about(clientId)}>
            {t('footer.about')}
          </Link>
          <Link component={RouterLink} to={paths.privacy(clientId)}>
            {t('footer.privacy')}
          </Link>
          <Link component={RouterLink} to={paths.terms(clientId)}>
            {t('footer.terms')}
          </Link>
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {t('footer.tagline')}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {t('footer.copyright', { year: COPYRIGHT_YEAR, orgName })}
        </Typography>
      </Stack>
    </Box>
  );
}
