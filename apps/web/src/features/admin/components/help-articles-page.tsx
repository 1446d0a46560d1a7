import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { HELP_SLUG_PATTERN } from '@healthbook/shared/help';
import type { AdminHelpArticle } from '@healthbook/shared/contracts/help';
import { HubPage } from '../../../components/hub-page';
import { applyServerErrors } from '../../../lib/form-errors';
import { useHelpArticles, useRemoveHelpArticle, useSaveHelpArticle } from '../api/help-articles';
import { OrganizationPicker, useChosenOrganization } from './organization-picker';

interface ArticleForm {
  slug: string;
  title_en: string;
  title_el: string;
  body_en: string;
  body_el: string;
  tags: string;
}
const FIELDS = ['slug', 'title_en', 'title_el', 'body_en', 'body_el', 'tags'] as const;

/**
 * Administration → Help articles: the organisation's articles in English and Greek. Every
 * organisation starts with the product's own; an organisation rewrites one, hides one, or adds
 * its own. Organisation admins edit theirs; super admins choose the organisation.
 */
export default function HelpArticlesPage() {
  const { t } = useTranslation('admin');
  const state = useChosenOrganization();
  const organizationId = state.chosen.org;
  const articles = useHelpArticles(organizationId);
  const save = useSaveHelpArticle();
  const remove = useRemoveHelpArticle();
  const [editing, setEditing] = useState<AdminHelpArticle | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const act = async (run: () => Promise<unknown>, done: string) => {
    setNotice(null);
    try {
      await run();
      setNotice(done);
    } catch (failure) {
      setNotice(applyServerErrors(failure, { fallback: t('helpArticles.failed') }));
    }
  };

  return (
    <HubPage pageTitle={t('helpArticles.pageTitle')} intro={t('helpArticles.intro')} maxWidth={1000}>
      <OrganizationPicker state={state} />
      <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')} sx={{ mb: 3, display: 'flex' }}>
        {t('helpArticles.new')}
      </Button>
      {notice && (
        <Typography role="status" sx={{ mb: 2 }}>
          {notice}
        </Typography>
      )}
      {articles.isPending && <CircularProgress aria-label={t('loading')} />}
      {articles.isError && <Alert severity="error">{applyServerErrors(articles.error, { fallback: t('helpArticles.loadFailed') })}</Alert>}
      <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {articles.data?.map((a) => (
          <Paper component="li" key={a.slug} variant="outlined" sx={{ p: 2, borderRadius: 3, opacity: a.hidden ? 0.75 : 1 }}>
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 0.5 }}>
              <Typography component="h2" sx={{ fontWeight: 600, fontSize: '1.05rem', mr: 1 }} lang="en">
                {a.title_en || a.slug}
              </Typography>
              {a.hidden ? (
                <Chip size="small" label={t('helpArticles.hidden')} />
              ) : a.own ? (
                <Chip size="small" color="primary" variant="outlined" label={a.has_default ? t('helpArticles.rewritten') : t('helpArticles.own')} />
              ) : (
                <Chip size="small" variant="outlined" label={t('helpArticles.default')} />
              )}
            </Box>
            <Typography variant="body2" color="text.secondary" lang="el" sx={{ mb: 1.5 }}>
              {a.title_el}
            </Typography>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              {!a.hidden && (
                <Button size="small" variant="outlined" onClick={() => setEditing(a)} aria-label={t('helpArticles.editNamed', { title: a.title_en })}>
                  {t('helpArticles.edit')}
                </Button>
              )}
              {a.has_default && !a.hidden && (
                <Button size="small" color="inherit" variant="outlined" onClick={() => void act(() => save.mutateAsync({ organizationId, slug: a.slug, body: { hidden: true } }), t('helpArticles.hiddenDone'))}>
                  {t('helpArticles.hide')}
                </Button>
              )}
              {a.own && (
                <Button size="small" color="inherit" variant="outlined" onClick={() => void act(() => remove.mutateAsync({ organizationId, slug: a.slug }), a.has_default ? t('helpArticles.restoredDone') : t('helpArticles.removedDone'))}>
                  {a.hidden ? t('helpArticles.show') : a.has_default ? t('helpArticles.restore') : t('helpArticles.remove')}
                </Button>
              )}
            </Stack>
          </Paper>
        ))}
      </Stack>
      {editing && (
        <ArticleDialog
          organizationId={organizationId}
          article={editing === 'new' ? null : editing}
          onClose={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('helpArticles.savedDone'));
          }}
        />
      )}
    </HubPage>
  );
}

function ArticleDialog({ organizationId, article, onClose }: { organizationId: number; article: AdminHelpArticle | null; onClose: (saved: boolean) => void }) {
  const { t } = useTranslation(['admin', 'validation']);
  const save = useSaveHelpArticle();
  const [general, setGeneral] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<ArticleForm>({
    defaultValues: article
      ? { slug: article.slug, title_en: article.title_en, title_el: article.title_el, body_en: article.body_en, body_el: article.body_el, tags: article.tags.join(', ') }
      : { slug: '', title_en: '', title_el: '', body_en: '', body_el: '', tags: '' },
  });
  const required = (value: string) => (value.trim() ? true : t('validation:required'));
  const submit = handleSubmit(async (values) => {
    setGeneral(null);
    try {
      await save.mutateAsync({
        organizationId,
        slug: values.slug.trim(),
        body: {
          title_en: values.title_en,
          title_el: values.title_el,
          body_en: values.body_en,
          body_el: values.body_el,
          tags: values.tags.split(',').map((tag) => tag.trim()).filter(Boolean),
          hidden: false,
          ...(article ? { feature: article.feature, position: article.position } : {}),
        },
      });
      onClose(true);
    } catch (failure) {
      setGeneral(applyServerErrors<ArticleForm>(failure, { setError, fields: FIELDS, fallback: t('helpArticles.failed') }));
    }
  });
  const field = (name: keyof ArticleForm, label: string, extra: Record<string, unknown> = {}) => (
    <TextField label={label} {...register(name, name === 'tags' ? {} : { validate: required })} error={!!formState.errors[name]} helperText={formState.errors[name]?.message} fullWidth {...extra} />
  );
  return (
    <Dialog open onClose={() => onClose(false)} fullWidth maxWidth="md" aria-labelledby="article-dialog-title">
      <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
        <DialogTitle id="article-dialog-title">{article ? t('helpArticles.editTitle') : t('helpArticles.newTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {!article && (
              <TextField
                label={t('helpArticles.slug')}
                {...register('slug', { validate: (v) => (HELP_SLUG_PATTERN.test(v.trim()) ? true : t('validation:helpSlugInvalid')) })}
                error={!!formState.errors.slug}
                helperText={formState.errors.slug?.message ?? t('helpArticles.slugHelp')}
              />
            )}
            <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
              {t('helpArticles.english')}
            </Typography>
            {field('title_en', t('helpArticles.titleField'), { slotProps: { htmlInput: { lang: 'en' } } })}
            {field('body_en', t('helpArticles.bodyField'), { multiline: true, minRows: 5, slotProps: { htmlInput: { lang: 'en' } } })}
            <Typography variant="h3" sx={{ fontSize: '1rem', fontWeight: 600 }}>
              {t('helpArticles.greek')}
            </Typography>
            {field('title_el', t('helpArticles.titleField'), { slotProps: { htmlInput: { lang: 'el' } } })}
            {field('body_el', t('helpArticles.bodyField'), { multiline: true, minRows: 5, slotProps: { htmlInput: { lang: 'el' } } })}
            {field('tags', t('helpArticles.tags'))}
            <Typography variant="body2" color="text.secondary">
              {t('helpArticles.format')}
            </Typography>
            {general && <Alert severity="error">{general}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => onClose(false)}>{t('helpArticles.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('helpArticles.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
