import { useEffect, useId, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined';
import { CATEGORIES } from '@healthbook/shared/records/categories';
import { localToday } from '@healthbook/shared/records/medical-date';
import type { ExportBody } from '@healthbook/shared/contracts/exports';
import { useTranslation } from 'react-i18next';
import { applyServerErrors } from '../../../lib/form-errors';
import { useHubFeatures } from '../../../lib/hub-features';
import { useOrganizationContext } from '../../../lib/organization-context';
import { categoryName, useRecordText } from '../../../lib/record-text';
import { useExportRecords, type ExportProgress } from '../api/export-records';
import { useRecordAccess } from '../../../lib/record-access';

export interface ExportDialogProps {
  open: boolean;
  onClose: () => void;
  /** The categories ticked when it opens (the page's own). */
  categories: readonly string[];
  /** Single records chosen on the page (a record's page: that record); offered as "only these". */
  recordIds?: readonly number[];
  /** "Include private records" as it opens (off, unless the chosen record is itself private). */
  includePrivate?: boolean;
  /** The range of dates as it opens (a list page's own filter), YYYY-MM-DD. */
  dateFrom?: string;
  dateTo?: string;
  /** What else to offer besides records: each while the organisation has its feature on (EXPORT_EXTRAS). */
  offer?: readonly ExportExtra[];
}

/**
 * What an export may hold besides records, each its own switch, off by default and enough on its
 * own, offered while the organisation has the feature on: the survey results, the journal, the
 * insurance cards' details.
 */
const EXPORT_EXTRAS = [
  { key: 'assessments', feature: 'surveys', label: 'healthRecords:export.includeAssessments', hint: 'healthRecords:export.includeAssessmentsHint' },
  { key: 'journal', feature: 'journal', label: 'healthRecords:export.includeJournal', hint: 'healthRecords:export.includeJournalHint' },
  { key: 'insurance', feature: 'insurance', label: 'healthRecords:export.includeInsurance', hint: 'healthRecords:export.includeInsuranceHint' },
] as const;
export type ExportExtra = (typeof EXPORT_EXTRAS)[number]['key'];

type Stage = { step: 'choose' } | { step: 'working'; progress: ExportProgress } | { step: 'done'; objectUrl: string; opened: boolean; fileName: string };

/** The time zone the "made at" line of the PDF is written in: the reader's. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * Export (§4 "Record saving and leaving"): choose categories (or the chosen records), optionally
 * a range of dates and private records; then the spec's wait message with progress (the server
 * making the PDF, then the PDF arriving), then the PDF opens in a new tab, or, where the browser
 * blocks that, a link opens it. Its choices start from the page's each time it is opened (the
 * Export button mounts it anew).
 */
export function ExportDialog({ open, onClose, categories, recordIds, includePrivate: privateAtFirst = false, dateFrom: fromAtFirst = '', dateTo: toAtFirst = '', offer = [] }: ExportDialogProps) {
  const { t, locale } = useRecordText();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const exporter = useExportRecords();
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(categories));
  const [onlySelected, setOnlySelected] = useState(Boolean(recordIds?.length));
  const [dateFrom, setDateFrom] = useState(fromAtFirst);
  const [dateTo, setDateTo] = useState(toAtFirst);
  const [withPrivate, setWithPrivate] = useState(privateAtFirst);
  const { canSeePrivate } = useRecordAccess();
  const [extrasOn, setExtrasOn] = useState<ReadonlySet<ExportExtra>>(new Set());
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const objectUrl = useRef<string | null>(null);
  const cancelled = useRef(false);

  // The PDF's object URL lives a while after the dialog goes (the new tab may still be reading it).
  useEffect(
    () => () => {
      const url = objectUrl.current;
      if (url) setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
    [],
  );

  const close = () => {
    cancelled.current = true;
    onClose();
  };

  const selectedOnly = onlySelected && Boolean(recordIds?.length);
  const types = selectedOnly ? [...categories] : CATEGORIES.map((c) => c.key).filter((k) => chosen.has(k));
  const badRange = Boolean(dateFrom && dateTo && dateTo < dateFrom);
  const offered = selectedOnly ? [] : EXPORT_EXTRAS.filter((extra) => offer.includes(extra.key));
  const extras = offered.filter((extra) => extrasOn.has(extra.key)).map((extra) => extra.key);
  const canExport = (types.length > 0 || extras.length > 0) && !badRange && stage.step === 'choose';

  const submit = async () => {
    if (!canExport) return;
    setError(null);
    const body: ExportBody = {
      types: types as ExportBody['types'],
      include_private: canSeePrivate && withPrivate,
      ...Object.fromEntries(extras.map((key) => [key, true])),
      language: locale === 'el' ? 'el' : 'en',
      time_zone: timeZone(),
      ...(selectedOnly && recordIds ? { record_ids: [...recordIds] } : {}),
      ...(dateFrom ? { date_from: dateFrom } : {}),
      ...(dateTo ? { date_to: dateTo } : {}),
    };
    setStage({ step: 'working', progress: { phase: 'making', fraction: 0 } });
    try {
      const { pdf } = await exporter.mutateAsync({ body, onProgress: (progress) => !cancelled.current && setStage({ step: 'working', progress }) });
      if (cancelled.current) return;
      const url = URL.createObjectURL(pdf);
      objectUrl.current = url;
      // Opened at once; a browser that blocks it (the click was a while ago) leaves the link below.
      const tab = window.open(url, '_blank');
      setStage({ step: 'done', objectUrl: url, opened: tab !== null, fileName: `health-record-${localToday()}.pdf` });
    } catch (err) {
      if (cancelled.current) return;
      setStage({ step: 'choose' });
      setError(applyServerErrors(err, { fallback: t('healthRecords:export.failed') }));
    }
  };

  const toggle = (key: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const allChosen = CATEGORIES.every((c) => chosen.has(c.key));
  const phaseLabel = stage.step !== 'working' ? '' : stage.progress.phase === 'making' ? t('healthRecords:export.making') : t('healthRecords:export.downloading');

  return (
    <Dialog open={open} onClose={stage.step === 'working' ? undefined : close} aria-labelledby={titleId} maxWidth="sm" fullWidth fullScreen={phone}>
      <DialogTitle id={titleId}>{t('healthRecords:export.title')}</DialogTitle>
      <DialogContent dividers>
        {stage.step === 'working' && (
          <Box role="status" aria-live="polite" sx={{ py: 4, textAlign: 'center' }}>
            <PictureAsPdfOutlined color="primary" sx={{ fontSize: 48, mb: 1 }} aria-hidden />
            <Typography sx={{ mb: 2, fontWeight: 600 }}>{t('records:messages.exportWait')}</Typography>
            {stage.progress.fraction !== null ? (
              <LinearProgress variant="determinate" value={Math.round(stage.progress.fraction * 100)} aria-label={phaseLabel} />
            ) : (
              <LinearProgress aria-label={phaseLabel} />
            )}
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {phaseLabel}
            </Typography>
          </Box>
        )}

        {stage.step === 'done' && (
          <Box role="status" sx={{ py: 2 }}>
            <Alert severity="success" sx={{ mb: 2 }}>
              {stage.opened ? t('healthRecords:export.opened') : t('healthRecords:export.ready')}
            </Alert>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
              <Button component="a" href={stage.objectUrl} target="_blank" rel="noopener" variant={stage.opened ? 'outlined' : 'contained'} startIcon={<PictureAsPdfOutlined />}>
                {t('healthRecords:export.open')}
              </Button>
              <Link href={stage.objectUrl} download={stage.fileName} sx={{ alignSelf: 'center' }}>
                {t('healthRecords:export.download')}
              </Link>
            </Stack>
          </Box>
        )}

        {stage.step === 'choose' && (
          <Stack spacing={2.5}>
            <Typography color="text.secondary">{t('healthRecords:export.intro')}</Typography>
            {error && (
              <Alert severity="error" onClose={() => setError(null)}>
                {error}
              </Alert>
            )}
            {recordIds && recordIds.length > 0 && (
              <FormControlLabel
                control={<Switch checked={onlySelected} onChange={(e) => setOnlySelected(e.target.checked)} />}
                label={t('healthRecords:export.onlySelected', { count: recordIds.length })}
              />
            )}
            {!selectedOnly && (
              <FormControl component="fieldset" error={types.length === 0}>
                <FormLabel component="legend" sx={{ mb: 0.5 }}>
                  {t('healthRecords:export.categories')}
                </FormLabel>
                <FormControlLabel
                  control={<Checkbox checked={allChosen} indeterminate={!allChosen && chosen.size > 0} onChange={(e) => setChosen(e.target.checked ? new Set(CATEGORIES.map((c) => c.key)) : new Set())} />}
                  label={t('healthRecords:export.all')}
                />
                <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, pl: { xs: 0, sm: 2 } }}>
                  {CATEGORIES.map((c) => (
                    <FormControlLabel key={c.key} control={<Checkbox checked={chosen.has(c.key)} onChange={(e) => toggle(c.key, e.target.checked)} />} label={categoryName(t, c.key, true)} />
                  ))}
                </FormGroup>
                {types.length === 0 && extras.length === 0 && <FormHelperText>{t('validation:exportTypesRequired')}</FormHelperText>}
              </FormControl>
            )}
            {!selectedOnly && (
              <Box>
                <Typography component="h3" variant="subtitle2" sx={{ mb: 1 }}>
                  {t('healthRecords:export.dates')}
                </Typography>
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <TextField type="date" size="small" label={t('healthRecords:dateFrom')} value={dateFrom} onChange={(e) => setDateFrom(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} fullWidth />
                  <TextField
                    type="date"
                    size="small"
                    label={t('healthRecords:dateTo')}
                    value={dateTo}
                    onChange={(e) => setDateTo(e.target.value)}
                    slotProps={{ inputLabel: { shrink: true } }}
                    error={badRange}
                    helperText={badRange ? t('validation:end-before-start') : undefined}
                    fullWidth
                  />
                </Stack>
              </Box>
            )}
            {offered.map((extra) => (
              <Box key={extra.key}>
                <FormControlLabel
                  control={
                    <Switch
                      checked={extrasOn.has(extra.key)}
                      onChange={(e) => setExtrasOn((on) => (e.target.checked ? new Set([...on, extra.key]) : new Set([...on].filter((k) => k !== extra.key))))}
                    />
                  }
                  label={t(extra.label)}
                />
                <FormHelperText sx={{ mt: 0 }}>{t(extra.hint)}</FormHelperText>
              </Box>
            ))}
            {canSeePrivate && (
              <Box>
                <FormControlLabel control={<Switch checked={withPrivate} onChange={(e) => setWithPrivate(e.target.checked)} />} label={t('healthRecords:export.includePrivate')} />
                <FormHelperText sx={{ mt: 0 }}>{t('healthRecords:export.includePrivateHint')}</FormHelperText>
              </Box>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {stage.step === 'choose' && (
          <>
            <Button onClick={close}>{t('healthRecords:export.cancel')}</Button>
            <Button variant="contained" onClick={() => void submit()} disabled={!canExport} startIcon={<PictureAsPdfOutlined />}>
              {t('healthRecords:export.submit')}
            </Button>
          </>
        )}
        {stage.step === 'working' && <Button onClick={close}>{t('healthRecords:export.cancel')}</Button>}
        {stage.step === 'done' && (
          <Button variant="contained" onClick={close}>
            {t('healthRecords:export.close')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

/** The Export button of a records page, with its dialog. */
export function ExportButton(props: Omit<ExportDialogProps, 'open' | 'onClose'> & { variant?: 'outlined' | 'contained' | 'text' }) {
  const { t } = useRecordText();
  const [open, setOpen] = useState(false);
  // Each opening is a new dialog: its choices start again from the page's.
  const [opening, setOpening] = useState(0);
  const { variant = 'outlined', ...dialog } = props;
  const { org } = useOrganizationContext();
  const { i18n } = useTranslation();
  const features = useHubFeatures(org.org, i18n.resolvedLanguage ?? 'en');
  // Survey results are not for read-only access (the server refuses them too).
  const { readOnly } = useRecordAccess();
  const offer = EXPORT_EXTRAS.filter((extra) => features.status(extra.feature) === 'active' && !(readOnly && extra.key === 'assessments')).map((extra) => extra.key);
  return (
    <>
      <Button
        variant={variant}
        startIcon={<PictureAsPdfOutlined />}
        onClick={() => {
          setOpening((n) => n + 1);
          setOpen(true);
        }}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        {t('healthRecords:export.button')}
      </Button>
      {opening > 0 && <ExportDialog key={opening} open={open} onClose={() => setOpen(false)} offer={offer} {...dialog} />}
    </>
  );
}
