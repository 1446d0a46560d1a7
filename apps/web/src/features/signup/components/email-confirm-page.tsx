import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { DelayedLoader } from '../../../components/delayed-loader';
import { FormPage } from '../../../components/form-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useConfirmEmail } from '../api/confirm-email';

const detailOf = (data: unknown): string | null =>
  data && typeof data === 'object' && 'detail' in data && typeof data.detail === 'string' ? data.detail : null;

/** The link of the confirmation e-mail: confirms the address on arrival, then offers sign-in. */
export default function EmailConfirmPage() {
  const { org, clientId } = useOrganizationContext();
  const { uid = '', token = '' } = useParams();
  const { t } = useTranslation('auth');
  const confirmation = useConfirmEmail({ uid, token });

  if (confirmation.isPending) {
    return (
      <>
        <title>{`${t('confirmEmail.pageTitle')} | ${org.org_name}`}</title>
        <DelayedLoader label={t('confirmEmail.checking')} />
      </>
    );
  }

  if (confirmation.isError) {
    const error = confirmation.error;
    const text =
      error instanceof ApiError && error.status < 500
        ? (detailOf(error.data) ?? t('confirmEmail.invalid'))
        : t('common.genericError');
    return (
      <FormPage pageTitle={t('confirmEmail.pageTitle')} heading={t('confirmEmail.failedTitle')}>
        <Alert severity="error" sx={{ my: 2 }}>
          {text}
        </Alert>
        <Link component={RouterLink} to={paths.login(clientId)}>
          {t('common.goToSignIn')}
        </Link>
      </FormPage>
    );
  }

  return (
    <FormPage pageTitle={t('confirmEmail.pageTitle')} heading={t('confirmEmail.confirmedTitle')}>
      <Alert severity="success" sx={{ my: 2 }}>
        {detailOf(confirmation.data) ?? t('confirmEmail.success')}
      </Alert>
      <Button component={RouterLink} to={paths.login(clientId)} variant="contained" size="large" fullWidth>
        {t('common.signIn')}
      </Button>
    </FormPage>
  );
}
