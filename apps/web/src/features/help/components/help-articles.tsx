import { useDeferredValue, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Search from '@mui/icons-material/Search';
import { HELP_SEARCH_MAX } from '@healthbook/shared/help';
import { DelayedLoader } from '../../../components/delayed-loader';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useArticles } from '../api/list-articles';

const FIRST_ARTICLES = 6;

/** The help articles: a search box (stemmed full-text search on the server) over the list, each a link to its page. */
export function HelpArticles() {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation('help');
  const [text, setText] = useState('');
  const search = useDeferredValue(text.trim());
  const articles = useArticles(search, i18n.resolvedLanguage ?? 'en');
  const headingId = useId();
  const statusId = useId();
  const results = articles.data?.results ?? [];
  const [showAll, setShowAll] = useState(false);
  // Without a search, the first few articles and a way to the rest: the page stays short and calm.
  const shown = search || showAll ? results : results.slice(0, FIRST_ARTICLES);

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 4 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1.5 }}>
        {t('articles.title')}
      </Typography>
      <Box component="form" role="search" onSubmit={(e) => e.preventDefault()} sx={{ mb: 2 }}>
        <TextField
          fullWidth
          type="search"
          label={t('articles.searchLabel')}
          placeholder={t('articles.searchPlaceholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          slotProps={{
            htmlInput: { maxLength: HELP_SEARCH_MAX, 'aria-describedby': statusId },
            input: { startAdornment: <InputAdornment position="start"><Search aria-hidden /></InputAdornment> },
          }}
          // The floating label of the focused field in the text colour: the organisation's colour may not read on the page background.
          sx={{ '& .MuiInputLabel-root.Mui-focused': { color: 'text.primary' } }}
        />
      </Box>
      <Typography id={statusId} role="status" variant="body2" color="text.secondary" sx={{ mb: 1.5, minHeight: '1.5em' }}>
        {articles.isSuccess && search ? (results.length ? t('articles.results', { count: results.length }) : '') : ''}
      </Typography>
      {articles.isPending ? (
        <DelayedLoader label={t('articles.loading')} />
      ) : articles.isError ? (
        <Alert severity="error" action={<Button color="inherit" onClick={() => void articles.refetch()}>{t('articles.retry')}</Button>}>
          {t('articles.loadFailed')}
        </Alert>
      ) : results.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 3 }}>
          <Typography sx={{ fontWeight: 600, mb: 0.5 }}>{t('articles.noResults', { search })}</Typography>
          <Typography color="text.secondary">
            {t('articles.noResultsHint')}{' '}
            <Link href="#contact">{t('articles.writeToUs')}</Link>
          </Typography>
        </Paper>
      ) : (
        <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {shown.map((a) => (
            <Paper component="li" key={a.slug} variant="outlined" sx={{ p: { xs: 2, sm: 2.5 }, borderRadius: 3 }}>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap', mb: 0.5 }}>
                <Link component={RouterLink} to={paths.helpArticle(clientId, a.slug)} variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 600 }}>
                  {a.title}
                </Link>
                {a.own && <Chip size="small" variant="outlined" label={t('articles.own')} />}
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {a.summary}
              </Typography>
            </Paper>
          ))}
        </Stack>
      )}
      {!search && !showAll && results.length > FIRST_ARTICLES && (
        <Button variant="outlined" onClick={() => setShowAll(true)} sx={{ mt: 2 }}>
          {t('articles.showAll', { count: results.length })}
        </Button>
      )}
    </Box>
  );
}
