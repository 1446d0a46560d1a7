import { useId } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import LockOutlined from '@mui/icons-material/LockOutlined';
import type { DocumentDto } from '@healthbook/shared/contracts/documents';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { CATEGORIES, categoryDefinition } from '@healthbook/shared/records/categories';
import { formatBytes } from '../../../lib/files';
import { recordDate, recordTitle } from '../../../lib/record-text';
import { SHARE_PICK_PAGE_SIZE, useCategoryRecords } from '../api/list-category-records';
import { useRecordCounts } from '../api/get-record-counts';
import type { ChosenRecord, ShareFormValues } from '../share-form';
import { categoryLabel, SHARING_NAMESPACES } from '../share-text';

type Form = UseFormReturn<ShareFormValues>;

/** A list of choices that scrolls past a few lines (a category may hold a hundred records). */
const scrollBox = { maxHeight: 360, overflowY: 'auto', border: 1, borderColor: 'divider', borderRadius: 2, px: 1.5, py: 0.5 } as const;

/** The label of a choice: its name, and a line under it. */
function ChoiceLabel({ primary, secondary, extra }: { primary: string; secondary?: string | undefined; extra?: React.ReactNode }) {
  return (
    <Box sx={{ py: 0.5, minWidth: 0 }}>
      <Typography component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
        {primary}
      </Typography>
      {secondary && (
        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
          {secondary}
        </Typography>
      )}
      {extra}
    </Box>
  );
}

/** "Private — cannot be shared", beside a choice that cannot be made. */
function PrivateHint({ text }: { text: string }) {
  return (
    <Typography component="span" variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'text.secondary', fontStyle: 'italic' }}>
      <LockOutlined sx={{ fontSize: '1rem' }} aria-hidden />
      {text}
    </Typography>
  );
}

export interface RecordsFieldsProps {
  /** Offer the insurance cards (the organisation has Insurance on). */
  offerInsurance?: boolean;
  form: Form;
  /** The category whose records are listed to pick from ('' for none yet). */
  pickCategory: string;
  onPickCategory: (category: string) => void;
  /** Titles of the records chosen, by id (those known so far). */
  titles: ReadonlyMap<number, string>;
  /** Records chosen that turned out to be private (never shared). */
  privateChosen: readonly ChosenRecord[];
}

/** Health records to share: whole categories (with how many records each holds), and single records picked from a category's list. */
export function RecordsFields({ form, pickCategory, onPickCategory, titles, privateChosen, offerInsurance = false }: RecordsFieldsProps) {
  const { t, i18n } = useTranslation(SHARING_NAMESPACES);
  const locale = i18n.resolvedLanguage ?? 'en';
  const { setValue, control, formState } = form;
  const [categories, records, insurance] = useWatch({ control, name: ['categories', 'records', 'insurance'] });
  const counts = useRecordCounts(locale);
  const countOf = new Map(counts.data?.categories.map((c) => [c.category, c.count]));
  const list = useCategoryRecords(pickCategory || null);
  const categoriesLegend = useId();
  const recordsLegend = useId();
  const wholeCategory = pickCategory !== '' && categories.includes(pickCategory);

  const toggleCategory = (key: string, on: boolean) =>
    setValue('categories', on ? [...categories, key] : categories.filter((c) => c !== key), { shouldDirty: true, shouldValidate: formState.isSubmitted });
  const toggleRecord = (record: HealthRecord, on: boolean) =>
    setValue('records', on ? [...records, { id: record.id, category: record.record_type }] : records.filter((r) => r.id !== record.id), {
      shouldDirty: true,
      shouldValidate: formState.isSubmitted,
    });
  const chosen = records.filter((r) => !privateChosen.some((p) => p.id === r.id));

  return (
    <Stack spacing={3}>
      <Box component="fieldset" aria-describedby={`${categoriesLegend}-hint`} sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Typography component="legend" id={categoriesLegend} variant="subtitle1" sx={{ fontWeight: 600, p: 0 }}>
          {t('form.categoriesLegend')}
        </Typography>
        <Typography id={`${categoriesLegend}-hint`} variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('form.categoriesHint')}
        </Typography>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(3, 1fr)' }, columnGap: { xs: 1, sm: 2 } }}>
          {CATEGORIES.map((c) => {
            const count = countOf.get(c.key);
            return (
              <FormControlLabel
                key={c.key}
                sx={{ alignItems: 'flex-start', mr: 0, '& .MuiCheckbox-root': { pt: 1 } }}
                control={<Checkbox checked={categories.includes(c.key)} onChange={(e) => toggleCategory(c.key, e.target.checked)} />}
                label={<ChoiceLabel primary={categoryLabel(t, c.key)} secondary={count === undefined ? undefined : t('form.recordCount', { count })} />}
              />
            );
          })}
        </Box>
        {offerInsurance && (
          <FormControlLabel
            sx={{ alignItems: 'flex-start', mr: 0, mt: 1, '& .MuiCheckbox-root': { pt: 1 } }}
            control={<Checkbox checked={insurance} onChange={(e) => setValue('insurance', e.target.checked, { shouldDirty: true, shouldValidate: formState.isSubmitted })} />}
            label={<ChoiceLabel primary={t('form.insurance')} secondary={t('form.insuranceHint')} />}
          />
        )}
      </Box>

      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
        <Typography component="legend" id={recordsLegend} variant="subtitle1" sx={{ fontWeight: 600, p: 0 }}>
          {t('form.recordsLegend')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('form.recordsHint')}
        </Typography>
        <TextField select label={t('form.pickCategory')} value={pickCategory} onChange={(e) => onPickCategory(e.target.value)} sx={{ minWidth: 260, mb: 1.5 }} fullWidth={false}>
          {CATEGORIES.map((c) => (
            <MenuItem key={c.key} value={c.key}>
              {categoryLabel(t, c.key)}
            </MenuItem>
          ))}
        </TextField>
        {pickCategory !== '' && (
          <Box>
            {wholeCategory && (
              <Alert severity="info" sx={{ mb: 1 }}>
                {t('form.wholeCategoryChosen', { category: categoryLabel(t, pickCategory) })}
              </Alert>
            )}
            {list.isPending && <CircularProgress size={24} aria-label={t('form.loadingRecords')} />}
            {list.isError && <Alert severity="error">{t('form.recordsFailed')}</Alert>}
            {list.data && list.data.results.length === 0 && <Typography color="text.secondary">{t('form.noRecords')}</Typography>}
            {list.data && list.data.results.length > 0 && (
              <Box role="group" aria-label={t('form.recordsOf', { category: categoryLabel(t, pickCategory) })} sx={scrollBox}>
                {list.data.results.map((record) => {
                  const definition = categoryDefinition(record.record_type);
                  const date = definition ? recordDate(t, locale, definition, record) : '';
                  return (
                    <FormControlLabel
                      key={record.id}
                      disabled={record.private || wholeCategory}
                      sx={{ display: 'flex', alignItems: 'flex-start', mr: 0, '& .MuiCheckbox-root': { pt: 1 } }}
                      control={<Checkbox checked={!record.private && (wholeCategory || records.some((r) => r.id === record.id))} onChange={(e) => toggleRecord(record, e.target.checked)} />}
                      label={<ChoiceLabel primary={recordTitle(t, locale, record)} secondary={date || undefined} extra={record.private ? <PrivateHint text={t('form.privateRecord')} /> : undefined} />}
                    />
                  );
                })}
              </Box>
            )}
            {list.data && list.data.count > list.data.results.length && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('form.firstRecordsOnly', { count: SHARE_PICK_PAGE_SIZE })}
              </Typography>
            )}
          </Box>
        )}
        {privateChosen.map((r) => (
          <Alert key={r.id} severity="warning" sx={{ mt: 1.5 }}>
            {t('form.privateChosen', { title: titles.get(r.id) ?? t('form.recordNumber', { id: r.id }) })}
          </Alert>
        ))}
        {chosen.length > 0 && (
          <Box sx={{ mt: 2 }}>
            <Typography variant="body2" sx={{ fontWeight: 600, mb: 1 }}>
              {t('form.chosenRecords', { count: chosen.length })}
            </Typography>
            <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              {chosen.map((r) => {
                const title = titles.get(r.id) ?? t('form.recordNumber', { id: r.id });
                return (
                  <Box component="li" key={r.id} sx={{ display: 'flex', alignItems: 'center', gap: 0.5, border: 1, borderColor: 'divider', borderRadius: 4, pl: 1.5, pr: 0.25, maxWidth: '100%' }}>
                    <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                      {`${title} · ${categoryLabel(t, r.category, false)}`}
                    </Typography>
                    <IconButton size="small" aria-label={t('form.removeRecord', { title })} onClick={() => setValue('records', records.filter((x) => x.id !== r.id), { shouldDirty: true })}>
                      <Close fontSize="small" />
                    </IconButton>
                  </Box>
                );
              })}
            </Box>
          </Box>
        )}
      </Box>
    </Stack>
  );
}

export interface DocumentsFieldsProps {
  form: Form;
  documents: DocumentDto[] | undefined;
  loading: boolean;
  failed: boolean;
  /** Documents that cannot be chosen: attached to a private record, or not known yet to be otherwise. */
  blocked: ReadonlySet<number>;
  /** Documents whose record is private (the rest of `blocked` is still being checked). */
  ofPrivateRecords: ReadonlySet<number>;
}

/** Documents of the Document Center to share; those attached to a private record cannot be chosen. */
export function DocumentsFields({ form, documents, loading, failed, blocked, ofPrivateRecords }: DocumentsFieldsProps) {
  const { t, i18n } = useTranslation(SHARING_NAMESPACES);
  const locale = i18n.resolvedLanguage ?? 'en';
  const { setValue, control, formState } = form;
  const chosen = useWatch({ control, name: 'documents' });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const toggle = (id: number, on: boolean) =>
    setValue('documents', on ? [...chosen, id] : chosen.filter((d) => d !== id), { shouldDirty: true, shouldValidate: formState.isSubmitted });

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ fontWeight: 600, p: 0 }}>
        {t('form.documentsLegend')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('form.documentsHint')}
      </Typography>
      {loading && <CircularProgress size={24} aria-label={t('form.loadingDocuments')} />}
      {failed && <Alert severity="error">{t('form.documentsFailed')}</Alert>}
      {documents && documents.length === 0 && <Typography color="text.secondary">{t('form.noDocuments')}</Typography>}
      {documents && documents.length > 0 && (
        <Box sx={scrollBox}>
          {documents.map((d) => {
            const isBlocked = blocked.has(d.id);
            return (
              <FormControlLabel
                key={d.id}
                disabled={isBlocked}
                sx={{ display: 'flex', alignItems: 'flex-start', mr: 0, '& .MuiCheckbox-root': { pt: 1 } }}
                control={<Checkbox checked={!isBlocked && chosen.includes(d.id)} onChange={(e) => toggle(d.id, e.target.checked)} />}
                label={
                  <ChoiceLabel
                    primary={d.file_name}
                    secondary={[formatBytes(d.size, locale), date.format(new Date(d.created_at))].join(' · ')}
                    extra={
                      ofPrivateRecords.has(d.id) ? (
                        <PrivateHint text={t('form.privateDocument')} />
                      ) : d.record ? (
                        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                          <AttachFile sx={{ fontSize: '1rem' }} aria-hidden />
                          {t('form.attachedTo', { title: d.record.title })}
                        </Typography>
                      ) : undefined
                    }
                  />
                }
              />
            );
          })}
        </Box>
      )}
    </Box>
  );
}
