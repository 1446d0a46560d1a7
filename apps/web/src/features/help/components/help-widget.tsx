import { useId } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';

/** Dashboard widget: where to find help. */
export default function HelpWidget() {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation('help');
  const headingId = useId();
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('widget.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('widget.text')}
      </Typography>
      <Button component={RouterLink} to={paths.help(clientId)} variant="outlined">
        {t('title', { shortName: org.org_short_name })}
      </Button>
    </Paper>
  );
}
