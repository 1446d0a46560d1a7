import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import InputAdornment from '@mui/material/InputAdornment';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Groups from '@mui/icons-material/Groups';
import Search from '@mui/icons-material/Search';
import { LineChart } from '@mui/x-charts/LineChart';
import type { JournalEntry, JournalMoods } from '@healthbook/shared/contracts/journal';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { DelayedLoader } from '../../../components/delayed-loader';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useDeleteJournalEntry } from '../api/delete-journal-entry';
import { JOURNAL_PAGE_SIZE, useJournalEntries } from '../api/list-journal-entries';
import { useJournalMoods } from '../api/list-journal-moods';
import { MOOD_FACES, formatDay } from '../moods';
import { EntryDialog } from './entry-dialog';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

/** journal: the patient's entries (search, tag filter), the mood over time, writing, changing and deleting entries. */
export default function JournalPage() {
  const { t, i18n } = useTranslation('journal');
  const language = i18n.resolvedLanguage ?? 'en';
  const { clientId } = useOrganizationContext();
  const [search, setSearch] = useState('');
  const [tag, setTag] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<JournalEntry | 'new' | null>(null);
  const [deleting, setDeleting] = useState<JournalEntry | null>(null);
  const [notice, setNotice] = useState('');
  const entries = useJournalEntries({ search, tag, page });
  const moods = useJournalMoods();
  const remove = useDeleteJournalEntry();
  const { writes, canSeePrivate, readOnly } = useRecordAccess();
  const canWrite = writes.journal;
  const listHeadingId = useId();

  const filterBy = (next: string) => {
    setTag(next);
    setPage(1);
  };

  const list = () => {
    if (entries.isPending) return <DelayedLoader />;
    if (entries.isError) return <Typography role="alert">{t('loadFailed')}</Typography>;
    const { count, results } = entries.data;
    if (count === 0)
      return (
        <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
          <Typography>{search || tag ? t('list.noMatch') : t('list.empty')}</Typography>
        </Paper>
      );
    return (
      <>
        <Typography color="text.secondary" sx={{ mb: 1.5 }} aria-live="polite">
          {t('list.count', { count })}
        </Typography>
        <Stack component="ul" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {results.map((entry) => (
            <Box component="li" key={entry.id}>
              <EntryCard entry={entry} language={language} onTag={filterBy} onEdit={() => setEditing(entry)} onDelete={() => setDeleting(entry)} />
            </Box>
          ))}
        </Stack>
        {count > JOURNAL_PAGE_SIZE && (
          <Pagination
            sx={{ mt: 3, display: 'flex', justifyContent: 'center' }}
            count={Math.ceil(count / JOURNAL_PAGE_SIZE)}
            page={page}
            onChange={(_, next) => setPage(next)}
            getItemAriaLabel={(type, n) => (type === 'page' ? t('list.page', { page: n }) : t(`list.${type}`))}
          />
        )}
      </>
    );
  };

  return (
    <HubPage pageTitle={t('pageTitle')} intro={t('intro')} back={{ to: paths.healthRecords(clientId), label: t('backToRecord') }}>
      {readOnly && <ReadOnlyNotice />}
      {canWrite && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 3 }}>
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing('new')}>
            {t('newEntry')}
          </Button>
          {canSeePrivate && (
            <Typography variant="body2" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
              <LockOutlined fontSize="small" aria-hidden />
              {t('privateByDefault')}
            </Typography>
          )}
        </Box>
      )}
      {notice && (
        <Alert severity="success" onClose={() => setNotice('')} sx={{ mb: 3 }}>
          {notice}
        </Alert>
      )}

      <MoodChart moods={moods.data} loading={moods.isPending} failed={moods.isError} language={language} />

      <Box component="section" aria-labelledby={listHeadingId} sx={{ mt: 4 }}>
        <Typography variant="h2" id={listHeadingId} sx={{ mb: 2 }}>
          {t('list.heading')}
        </Typography>
        <Box role="search" sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
          <TextField
            type="search"
            label={t('list.search')}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
            size="small"
            sx={{ flex: '1 1 240px', maxWidth: 420 }}
            slotProps={{ input: { startAdornment: (
              <InputAdornment position="start">
                <Search fontSize="small" aria-hidden />
              </InputAdornment>
            ) } }}
          />
          {tag ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Chip label={t('list.tagFilter', { tag })} color="primary" variant="outlined" />
              <Button size="small" onClick={() => filterBy('')}>
                {t('list.clearTag')}
              </Button>
            </Box>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('list.tagHint')}
            </Typography>
          )}
        </Box>
        {list()}
      </Box>

      {editing !== null && (
        <EntryDialog
          entry={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, created) => {
            setEditing(null);
            setNotice(t(created ? 'saved' : 'changed', { title: saved.title }));
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('delete.title')}
        confirmLabel={t('delete.confirm')}
        destructive
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const entry = deleting!;
          setDeleting(null);
          remove.mutate(entry.id, { onSuccess: () => setNotice(t('deleted', { title: entry.title })), onError: () => setNotice(t('deleteFailed')) });
        }}
      >
        {deleting && t('delete.text', { title: deleting.title, date: formatDay(deleting.entry_date, language, 'long') })}
      </ConfirmDialog>
    </HubPage>
  );
}

function EntryCard({ entry, language, onTag, onEdit, onDelete }: { entry: JournalEntry; language: string; onTag: (tag: string) => void; onEdit: () => void; onDelete: () => void }) {
  const { writes } = useRecordAccess();
  const canWrite = writes.journal;
  const { t } = useTranslation('journal');
  const headingId = useId();
  return (
    <Paper component="article" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="body2" color="text.secondary">
        <time dateTime={entry.entry_date}>{formatDay(entry.entry_date, language, 'long')}</time>
      </Typography>
      <Typography variant="h3" id={headingId} sx={{ fontSize: '1.2rem', fontWeight: 600, mt: 0.5, overflowWrap: 'anywhere' }}>
        {entry.title}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mt: 1 }}>
        {entry.mood !== null && (
          <Typography sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
            <Box component="span" aria-hidden sx={{ fontSize: '1.3rem', lineHeight: 1 }}>
              {MOOD_FACES[entry.mood]}
            </Box>
            {t('moodIs', { mood: t(`moods.${entry.mood}`) })}
          </Typography>
        )}
        <Typography variant="body2" color="text.secondary" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          {entry.private ? <LockOutlined fontSize="small" aria-hidden /> : <Groups fontSize="small" aria-hidden />}
          {entry.private ? t('private') : t('shared')}
        </Typography>
      </Box>
      {entry.text && (
        <Typography sx={{ mt: 1.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{entry.text}</Typography>
      )}
      {entry.tags.length > 0 && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1.5 }} aria-label={t('tags')} role="group">
          {entry.tags.map((tag) => (
            <Chip key={tag} label={tag} size="small" onClick={() => onTag(tag)} aria-label={t('filterByTag', { tag })} />
          ))}
        </Box>
      )}
      {canWrite && (
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button size="small" startIcon={<EditOutlined />} onClick={onEdit} aria-label={t('editOf', { title: entry.title })}>
            {t('edit')}
          </Button>
          <Button size="small" color="error" startIcon={<DeleteOutlined />} onClick={onDelete} aria-label={t('deleteOf', { title: entry.title })}>
            {t('delete.button')}
          </Button>
        </Box>
      )}
    </Paper>
  );
}

/** The mood over time (y 1-5), with its text alternative: a sentence and the table of values. */
function MoodChart({ moods, loading, failed, language }: { moods: JournalMoods | undefined; loading: boolean; failed: boolean; language: string }) {
  const { t } = useTranslation('journal');
  const headingId = useId();
  const captionId = useId();
  const body = () => {
    if (loading) return <DelayedLoader />;
    if (failed || !moods) return <Typography role="alert">{t('loadFailed')}</Typography>;
    if (moods.length === 0) return <Typography color="text.secondary">{t('chart.empty')}</Typography>;
    const last = moods.at(-1)!;
    const average = moods.reduce((n, m) => n + m.mood, 0) / moods.length;
    return (
      <>
        <Box role="img" aria-label={t('chart.label', { count: moods.length })}>
          <LineChart
            height={220}
            skipAnimation
            hideLegend
            margin={{ left: 0, right: 24 }}
            xAxis={[{ scaleType: 'point', data: moods.map((m, i) => `${m.date}#${i}`), valueFormatter: (v: string) => formatDay(v.split('#')[0]!, language) }]}
            yAxis={[{ min: 1, max: 5, tickInterval: [1, 2, 3, 4, 5], width: 36 }]}
            series={[{ data: moods.map((m) => m.mood), label: t('chart.series'), curve: 'linear', showMark: true, valueFormatter: (v: number | null) => (v ? t(`moods.${v}`) : '') }]}
          />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {t('chart.summary', {
            count: moods.length,
            from: formatDay(moods[0]!.date, language),
            to: formatDay(last.date, language),
            latest: t(`moods.${last.mood}`),
            average: average.toLocaleString(language, { maximumFractionDigits: 1 }),
          })}
        </Typography>
        <Table size="small" sx={visuallyHidden} aria-describedby={captionId}>
          <caption id={captionId}>{t('chart.tableCaption')}</caption>
          <TableHead>
            <TableRow>
              <TableCell>{t('chart.date')}</TableCell>
              <TableCell>{t('chart.mood')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {moods.map((m) => (
              <TableRow key={m.id}>
                <TableCell>{formatDay(m.date, language)}</TableCell>
                <TableCell>{t('chart.moodValue', { mood: m.mood, label: t(`moods.${m.mood}`) })}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </>
    );
  };
  return (
    <Paper component="section" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, minWidth: 0 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 0.5 }}>
        {t('chart.heading')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        {t('chart.scale')}
      </Typography>
      {body()}
    </Paper>
  );
}
