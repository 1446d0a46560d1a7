import { Link as RouterLink, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { HubPage } from '../components/hub-page';
import { RouteError } from '../components/route-error';
import { useOrganizationContext } from '../lib/organization-context';
import { paths } from '../lib/paths';
import { accessRefusal } from '../lib/record-access';

/**
 * The error view of the signed-in pages. A page the viewed record's access does not reach
 * (a read-only carer on the surveys, a grant of some categories on the journal), refused by the
 * server or by the page's guard, says why, in the server's words or the area's rule ("Only people
 * with full access can…"), and leads back; anything else is the general error view.
 */
export default function SignedInError() {
  const error = useRouteError();
  const refusal = accessRefusal(error);
  if (!refusal) return <RouteError />;
  return <AccessRefused message={refusal.message} messageKey={refusal.messageKey} />;
}

function AccessRefused({ message, messageKey }: { message: string | null; messageKey: string | null }) {
  const { t } = useTranslation(['common', 'errors']);
  const { clientId } = useOrganizationContext();
  const reason = message ?? (messageKey ? t(messageKey) : t('common:recordAccess.refusedText'));
  return (
    <HubPage pageTitle={t('common:recordAccess.refusedTitle')} maxWidth={720}>
      <Alert severity="info" icon={<LockOutlined fontSize="inherit" />} sx={{ mb: 3 }}>
        {reason}
      </Alert>
      <Button component={RouterLink} to={paths.dashboard(clientId)} variant="contained">
        {t('common:recordAccess.backToDashboard')}
      </Button>
    </HubPage>
  );
}
