import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useArticle } from '../api/get-article';
import { ArticleBody } from './article-body';

/** One help article (healthhelp/articles/:slug): its text, the page it is about (while active), and where to ask more. */
export default function HelpArticlePage() {
  const { slug = '' } = useParams();
  const { org, clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('help');
  const article = useArticle(slug, i18n.resolvedLanguage ?? 'en');
  const back = { to: paths.help(clientId), label: t('article.back') };

  if (article.isPending) {
    return (
      <HubPage pageTitle={t('pageTitle')} title={null} back={back} maxWidth={760}>
        <DelayedLoader label={t('article.loading')} />
      </HubPage>
    );
  }
  if (article.isError) {
    const missing = article.error instanceof ApiError && (article.error.status === 404 || article.error.status === 400);
    return (
      <HubPage pageTitle={t('article.notFoundTitle')} back={back} maxWidth={760}>
        <Alert severity={missing ? 'info' : 'error'} action={missing ? undefined : <Button color="inherit" onClick={() => void article.refetch()}>{t('articles.retry')}</Button>}>
          {missing ? t('article.notFound') : t('article.loadFailed')}
        </Alert>
      </HubPage>
    );
  }
  const a = article.data;
  const updated = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'long' }).format(new Date(a.updated_at));
  return (
    <HubPage pageTitle={a.title} back={back} maxWidth={760}>
      <Typography variant="body2" color="text.secondary" sx={{ mt: -2, mb: 3 }}>
        {a.own ? t('article.fromOrg', { orgName: org.org_name, date: updated }) : t('article.updated', { date: updated })}
      </Typography>
      <Box component="article">
        <ArticleBody body={a.body} />
      </Box>
      {a.feature_route && a.feature_name && (
        <Button component={RouterLink} to={paths.feature(clientId, a.feature_route)} variant="contained" sx={{ mt: 1, mb: 3 }}>
          {t('article.openFeature', { name: a.feature_name })}
        </Button>
      )}
      <Divider sx={{ my: 3 }} />
      <Typography color="text.secondary">
        {t('article.more')}{' '}
        <Link component={RouterLink} to={paths.helpContact(clientId)}>
          {t('article.writeToUs')}
        </Link>
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('article.emergency', { number: org.emergency_number })}
      </Typography>
    </HubPage>
  );
}
