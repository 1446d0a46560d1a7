import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import { ApiError } from '../lib/api-client';
import { useOrganizationContext } from '../lib/organization-context';
import { paths } from '../lib/paths';
import { DelayedLoader } from './delayed-loader';
import { FormPage } from './form-page';

export interface LinkCheckPageProps {
  /** The query that sent the link's uid and token, once (see confirm-email, confirm-email-change). */
  check: { isPending: boolean; isError: boolean; error: unknown; data: unknown };
  /**
   * Where the page's texts are: a namespace and a key holding pageTitle, checking, doneTitle,
   * done (when the server's answer has no detail), failedTitle and invalid (likewise).
   */
  ns: 'auth' | 'account';
  texts: string;
}

const detailOf = (data: unknown): string | null =>
  data && typeof data === 'object' && 'detail' in data && typeof data.detail === 'string' ? data.detail : null;

/**
 * The page of an e-mailed one-time link (public): it sends the link's token on arrival, then
 * says how it went in the server's words: done, with sign-in; or invalid, with a way to sign in.
 */
export function LinkCheckPage({ check, ns, texts: key }: LinkCheckPageProps) {
  const { org, clientId } = useOrganizationContext();
  const { t } = useTranslation([ns, 'auth']);
  const text = (name: string) => t(`${ns}:${key}.${name}`);

  if (check.isPending) {
    return (
      <>
        <title>{`${text('pageTitle')} | ${org.org_name}`}</title>
        <DelayedLoader label={text('checking')} />
      </>
    );
  }

  if (check.isError) {
    const error = check.error;
    const message = error instanceof ApiError && error.status < 500 ? (detailOf(error.data) ?? text('invalid')) : t('auth:common.genericError');
    return (
      <FormPage pageTitle={text('pageTitle')} heading={text('failedTitle')}>
        <Alert severity="error" sx={{ my: 2 }}>
          {message}
        </Alert>
        <Link component={RouterLink} to={paths.login(clientId)}>
          {t('auth:common.goToSignIn')}
        </Link>
      </FormPage>
    );
  }

  return (
    <FormPage pageTitle={text('pageTitle')} heading={text('doneTitle')}>
      <Alert severity="success" sx={{ my: 2 }}>
        {detailOf(check.data) ?? text('done')}
      </Alert>
      <Button component={RouterLink} to={paths.login(clientId)} variant="contained" size="large" fullWidth>
        {t('auth:common.signIn')}
      </Button>
    </FormPage>
  );
}
