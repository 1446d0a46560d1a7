import { lazy, Suspense, useId } from 'react';
import { Link as RouterLink, Navigate, useParams, useSearchParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import Add from '@mui/icons-material/Add';
import LockOutlined from '@mui/icons-material/LockOutlined';
import Search from '@mui/icons-material/Search';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import type { CategoryDefinition } from '@healthbook/shared/records/fields';
import { FlashMessage } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { ShareLinkButton } from '../../../components/share-link-button';
import { useCurrentUser } from '../../../lib/auth';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useSearchQuery } from '../../../lib/search-query';
import { useRecordList } from '../api/list-records';
import { categoryName, fieldLabel, formatItem, itemLabel, recordTitle, useRecordText } from '../../../lib/record-text';
import { readingItems } from '@healthbook/shared/records/format';
import { LabFlagChip } from './lab-flag-chip';
import { ProvenanceChip } from './provenance-chip';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';
import { ExportButton } from './export-dialog';
import { TermList } from '../../../components/term-list';

/** The charts of biometrics (and their library) load only on that list: the other lists carry no chart. */
const BiometricsTrends = lazy(() => import('./biometrics-trends').then((m) => ({ default: m.BiometricsTrends })));

const PAGE_SIZE = 20;
/** A new search starts again at page 1. */
const PAGE_PARAM = ['page'] as const;
const SORTS = ['dateDesc', 'dateAsc', 'titleAsc', 'updatedDesc'] as const;
type Sort = (typeof SORTS)[number];

/** The orderings a category offers (the date ones only when it has a date), as the API's `ordering`. */
function orderingOf(category: CategoryDefinition, sort: Sort): string {
  switch (sort) {
    case 'dateDesc':
      return category.dateField ? `-${category.dateField}` : '-created_at';
    case 'dateAsc':
      return category.dateField ? category.dateField : 'created_at';
    case 'titleAsc':
      return category.titleField;
    case 'updatedDesc':
      return '-updated_at';
  }
}

/** The columns of a category's list: its title, then the fields it marks as columns (a few on a phone). */
function columnsOf(category: CategoryDefinition) {
  return readingItems(category).filter((item) => item.name !== category.titleField && item.column && item.name !== 'diastolic').slice(0, 4);
}

/** /health-record/:category — one category's records: searchable, sortable, filtered by date, paged; a table on wide screens, cards on phones. */
export default function RecordListPage() {
  const { category: key = '' } = useParams();
  const category = categoryDefinition(key);
  const { clientId } = useOrganizationContext();
  if (!category) return <Navigate to={paths.notFound(clientId)} replace />;
  return <RecordList key={category.key} category={category} />;
}

function RecordList({ category }: { category: CategoryDefinition }) {
  const { clientId } = useOrganizationContext();
  const { canWrite, readOnly } = useRecordAccess();
  const { t, locale } = useRecordText();
  const user = useCurrentUser();
  const imperial = user?.imperial_units === true;
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const sort = (SORTS as readonly string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as Sort) : 'dateDesc';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const [search, setSearch] = useSearchQuery(PAGE_PARAM);
  const searchId = useId();

  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name !== 'page') next.delete('page');
    setParams(next, { replace: name !== 'page' });
  };

  const list = useRecordList(category.key, {
    page,
    page_size: PAGE_SIZE,
    ordering: orderingOf(category, sort),
    ...(params.get('q') ? { search: params.get('q')! } : {}),
    ...(from ? { date_from: from } : {}),
    ...(to ? { date_to: to } : {}),
  });
  const plural = categoryName(t, category.key, true);
  const one = categoryName(t, category.key);
  const columns = columnsOf(category);
  const filtered = Boolean(params.get('q') || from || to);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.count / PAGE_SIZE)) : 1;

  return (
    <HubPage pageTitle={plural} intro={t(`records:categories.${category.key}.intro`)} maxWidth={1100} back={{ to: paths.healthRecords(clientId), label: t('healthRecords:backToOverview') }}>
      {readOnly && <ReadOnlyNotice />}

      {category.key === 'biometrics' && (
        // Nothing is drawn until the measurements are in (the trends draw nothing before them either).
        <Suspense fallback={null}>
          <BiometricsTrends imperial={imperial} />
        </Suspense>
      )}

      {/* The filters keep the width their words need and wrap to a new line rather than shrink (Greek labels are longer). */}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mb: 2, alignItems: 'center' }}>
        <TextField
          id={searchId}
          type="search"
          label={t('healthRecords:search')}
          placeholder={t('healthRecords:searchPlaceholder', { type: plural.toLowerCase() })}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          size="small"
          sx={{ flex: '1 1 300px' }}
          slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" aria-hidden /></InputAdornment> } }}
        />
        <TextField select size="small" label={t('healthRecords:sort')} value={sort} onChange={(e) => set('sort', e.target.value)} sx={{ flex: { xs: '1 1 100%', sm: '0 0 auto' }, minWidth: 220 }}>
          {SORTS.filter((s) => category.dateField || !s.startsWith('date')).map((s) => (
            <MenuItem key={s} value={s}>
              {t(`healthRecords:sorts.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ display: 'flex', gap: 2, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}>
          {(['from', 'to'] as const).map((bound) => (
            <TextField
              key={bound}
              type="date"
              size="small"
              label={t(bound === 'from' ? 'healthRecords:dateFrom' : 'healthRecords:dateTo')}
              value={bound === 'from' ? from : to}
              onChange={(e) => set(bound, e.target.value)}
              sx={{ flex: '1 1 0', minWidth: 150 }}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          ))}
        </Box>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', ml: { md: 'auto' } }}>
          <ShareLinkButton query={{ category: category.key }} />
          {canWrite && (
            <Button component={RouterLink} to={paths.recordNew(clientId, category.key)} variant="contained" startIcon={<Add />} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
              {t('healthRecords:add', { type: one.toLowerCase(), context: category.key })}
            </Button>
          )}
          <ExportButton categories={[category.key]} dateFrom={from} dateTo={to} />
        </Box>
      </Box>

      {list.isError && (
        <Alert severity="error" action={<Button onClick={() => void list.refetch()}>{t('healthRecords:retry')}</Button>} sx={{ mb: 2 }}>
          {t('healthRecords:loadFailed')}
        </Alert>
      )}
      {list.isPending && (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={plural} />
        </Box>
      )}

      {list.data && (
        <>
          <Typography role="status" variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('healthRecords:resultCount', { count: list.data.count })}
          </Typography>
          {list.data.count === 0 ? (
            <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
              <Typography sx={{ mb: filtered ? 1 : 2 }}>{filtered ? t('healthRecords:emptyFiltered') : t('healthRecords:empty', { type: plural.toLowerCase() })}</Typography>
              {filtered ? (
                <Button
                  onClick={() => {
                    setSearch('');
                    setParams(new URLSearchParams(), { replace: true });
                  }}
                >
                  {t('healthRecords:clearFilters')}
                </Button>
              ) : canWrite ? (
                <Button component={RouterLink} to={paths.recordNew(clientId, category.key)} variant="contained" startIcon={<Add />}>
                  {t('healthRecords:add', { type: one.toLowerCase(), context: category.key })}
                </Button>
              ) : null}
            </Paper>
          ) : wide ? (
            <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
              <Table aria-label={plural}>
                <TableHead>
                  <TableRow>
                    <TableCell>{fieldLabel(t, category, category.titleField)}</TableCell>
                    {columns.map((c) => (
                      <TableCell key={c.name}>{itemLabel(t, category, c)}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {list.data.results.map((record) => (
                    <TableRow key={record.id} hover>
                      <TableCell component="th" scope="row">
                        <RecordLink clientId={clientId} record={record} title={recordTitle(t, locale, record)} privateLabel={t('healthRecords:private')} />
                      </TableCell>
                      {columns.map((c) => (
                        <TableCell key={c.name}>{c.kind === 'row' && c.row.format === 'labFlag' ? <LabFlagChip record={record} /> : formatItem(t, locale, c, record, imperial)}</TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Paper>
          ) : (
            <Box component="ul" aria-label={plural} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
              {list.data.results.map((record) => (
                <Paper component="li" variant="outlined" key={record.id} sx={{ p: 2, borderRadius: 3 }}>
                  <RecordLink clientId={clientId} record={record} title={recordTitle(t, locale, record)} privateLabel={t('healthRecords:private')} />
                  <TermList
                    sx={{ mt: 1 }}
                    terms={columns.map((c) => {
                      const value = formatItem(t, locale, c, record, imperial);
                      return { key: c.name, label: itemLabel(t, category, c), value: value && c.kind === 'row' && c.row.format === 'labFlag' ? <LabFlagChip record={record} /> : value };
                    })}
                  />
                </Paper>
              ))}
            </Box>
          )}
          {pages > 1 && (
            <Box component="nav" aria-label={t('healthRecords:pagination', { type: plural.toLowerCase() })} sx={{ display: 'flex', justifyContent: 'center', mt: 3 }}>
              <Pagination count={pages} page={Math.min(page, pages)} onChange={(_e, p) => set('page', p === 1 ? '' : String(p))} color="primary" />
            </Box>
          )}
        </>
      )}
      <FlashMessage />
    </HubPage>
  );
}

function RecordLink({ clientId, record, title, privateLabel }: { clientId: string; record: HealthRecord; title: string; privateLabel: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <Link component={RouterLink} to={paths.recordDetail(clientId, record.record_type, record.id)} sx={{ fontWeight: 600 }}>
        {title}
      </Link>
      {record.private && <Chip size="small" variant="outlined" icon={<LockOutlined />} label={privateLabel} />}
      {record.provenance && <ProvenanceChip provenance={record.provenance} />}
    </Box>
  );
}
