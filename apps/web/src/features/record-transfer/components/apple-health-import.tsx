import { useId, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import UploadFile from '@mui/icons-material/UploadFile';
import type { AppleHealthImport } from '@healthbook/shared/contracts/exports';
import { APPLE_HEALTH_MAX_BYTES } from '@healthbook/shared/constants';
import { CHOICE_LISTS } from '@healthbook/shared/records/choices';
import { visuallyHidden } from '../../../components/visually-hidden';
import { failureText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { formatIsoDate } from '../../../lib/record-text';
import { useAddAppleHealthMeasurements, useAppleHealthClinical, useAppleHealthImport, useDiscardAppleHealth, useUploadAppleHealth, type AppleHealthThin } from '../api/apple-health';
import type { FhirBundle } from '../api/import-fhir';
import { isZip } from '../import-source';

const NAMESPACES = ['recordTransfer', 'records'] as const;
const ACCEPTED = '.zip,application/zip';
/** The measurements an export's readings become: the biometrics' (the server's APPLE_HEALTH_MEASURES). */
const MEASURES = CHOICE_LISTS.measure;
type Measure = (typeof MEASURES)[number];
type Counts = NonNullable<AppleHealthImport['counts']>;

/**
 * An Apple Health export, from the file to the record: uploaded (its progress), read by the
 * server (polled), then what it holds; its state here, so the page's own file chooser can hand a
 * zip to it (`start`).
 */
export function useAppleHealthFlow() {
  const { t, i18n } = useTranslation(NAMESPACES);
  const uploader = useUploadAppleHealth();
  const discarder = useDiscardAppleHealth();
  const [thin, setThin] = useState<AppleHealthThin>('day');
  const [uploading, setUploading] = useState<{ name: string; fraction: number } | null>(null);
  const [id, setId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const current = useAppleHealthImport(id, i18n.language);

  const discard = () => {
    if (id !== null) discarder.mutate(id);
    setId(null);
  };

  const start = async (file: File) => {
    // One import at a time: the one shown before goes (records it added stay).
    discard();
    setError(null);
    if (file.size > APPLE_HEALTH_MAX_BYTES) return setError(t('recordTransfer:appleHealth.tooLarge', { name: file.name, size: `${APPLE_HEALTH_MAX_BYTES / 1024 ** 3} GB` }));
    if (!(await isZip(file))) return setError(t('recordTransfer:appleHealth.notZip', { name: file.name }));
    setUploading({ name: file.name, fraction: 0 });
    try {
      const answer = await uploader.mutateAsync({ file, thin, onProgress: (fraction) => setUploading({ name: file.name, fraction }) });
      setId(answer.id);
    } catch (err) {
      setError(failureText(t('recordTransfer:appleHealth.uploadRefused', { name: file.name }), err, t('recordTransfer:appleHealth.tryAgain')));
    } finally {
      setUploading(null);
    }
  };

  const reset = () => {
    discard();
    setError(null);
  };

  const status = current.data?.status;
  const busy = uploading !== null || (id !== null && (status === undefined || status === 'reading' || status === 'importing'));
  return { thin, setThin, uploading, id, error, current, start, discard, reset, busy };
}

export type AppleHealthFlow = ReturnType<typeof useAppleHealthFlow>;

/** The Apple Health part of the import: how to get the file, the choice of readings, then each step. */
export function AppleHealthImportSection({ flow, disabled, onReview }: { flow: AppleHealthFlow; disabled: boolean; onReview: (name: string, bundle: FhirBundle) => Promise<void> }) {
  const { t } = useTranslation(NAMESPACES);
  const headingId = useId();
  const input = useRef<HTMLInputElement>(null);
  const data = flow.id !== null ? flow.current.data : undefined;
  const status = data?.status;
  const choosing = !flow.busy && (flow.id === null || status === 'failed' || status === 'done' || flow.current.isError);

  const choose = () => {
    if (input.current) input.current.value = '';
    input.current?.click();
  };

  let announcement = '';
  if (flow.uploading) announcement = t('recordTransfer:appleHealth.uploading', { name: flow.uploading.name });
  else if (flow.id !== null && (!data || status === 'reading')) announcement = t('recordTransfer:appleHealth.reading');
  else if (status === 'importing') announcement = t('recordTransfer:appleHealth.importing');
  else if (status === 'ready' && data) announcement = t('recordTransfer:appleHealth.read', { name: data.file_name });

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 3 }}>
      <Typography id={headingId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, fontSize: '1.125rem', mb: 0.5 }}>
        {t('recordTransfer:appleHealth.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('recordTransfer:appleHealth.text')}
      </Typography>
      <Box role="status" sx={visuallyHidden}>
        {announcement}
      </Box>
      {data && status === 'done' && <DoneAlert data={data} />}
      {data && status === 'failed' && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} action={<Button color="inherit" size="small" onClick={choose}>{t('recordTransfer:appleHealth.chooseAnother')}</Button>}>
          {data.error?.message}
        </Alert>
      )}
      {choosing && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 3, rowGap: 1.5 }}>
          <Box component="fieldset" sx={{ border: 0, m: 0, p: 0, minWidth: 0 }}>
            <FormLabel component="legend" sx={{ color: 'text.primary' }}>
              {t('recordTransfer:appleHealth.thin.legend')}
            </FormLabel>
            <RadioGroup row value={flow.thin} onChange={(e) => flow.setThin(e.target.value as AppleHealthThin)}>
              <FormControlLabel value="day" control={<Radio />} label={t('recordTransfer:appleHealth.thin.day')} disabled={disabled} />
              <FormControlLabel value="none" control={<Radio />} label={t('recordTransfer:appleHealth.thin.none')} disabled={disabled} />
            </RadioGroup>
          </Box>
          <Button variant="outlined" startIcon={<UploadFile />} onClick={choose} disabled={disabled}>
            {t('recordTransfer:appleHealth.choose')}
          </Button>
        </Box>
      )}
      <input ref={input} type="file" accept={ACCEPTED} hidden aria-label={t('recordTransfer:appleHealth.choose')} onChange={(e) => e.target.files?.[0] && void flow.start(e.target.files[0])} />
      {flow.error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {flow.error}
        </Alert>
      )}
      {flow.uploading && <ProgressLine label={t('recordTransfer:appleHealth.uploading', { name: flow.uploading.name })} fraction={flow.uploading.fraction} />}
      {flow.id !== null && flow.current.isError && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {t('recordTransfer:appleHealth.gone')}
        </Alert>
      )}
      {flow.id !== null && !flow.current.isError && (!data || status === 'reading') && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 2 }}>
          <ProgressLine label={t('recordTransfer:appleHealth.reading')} fraction={data && data.progress.total > 0 ? data.progress.done / data.progress.total : 0} />
          <Button onClick={flow.reset}>{t('recordTransfer:appleHealth.cancel')}</Button>
        </Box>
      )}
      {data && status === 'importing' && <ProgressLine label={t('recordTransfer:appleHealth.importing')} fraction={data.progress.total > 0 ? data.progress.done / data.progress.total : 0} />}
      {data && status === 'ready' && data.counts && <ReadySummary key={data.id} data={data} counts={data.counts} disabled={disabled} onReview={onReview} onDiscard={flow.reset} />}
    </Box>
  );
}

/** One determinate bar with its words ("Uploading export.zip… 45%"); the phase itself is announced by the section's status. */
function ProgressLine({ label, fraction }: { label: string; fraction: number }) {
  const { i18n } = useTranslation();
  const value = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent' }).format(value / 100);
  return (
    <Box sx={{ mt: 2, flex: '1 1 280px', minWidth: 0 }}>
      <Typography variant="body2" sx={{ mb: 0.75 }} aria-hidden>
        {label} {percent}
      </Typography>
      <LinearProgress variant="determinate" value={value} aria-label={label} aria-valuetext={percent} sx={{ height: 8, borderRadius: 4 }} />
    </Box>
  );
}

/** What the export holds: its clinical records (reviewed in the page's preview) and its measurements, to choose. */
function ReadySummary({ data, counts, disabled, onReview, onDiscard }: { data: AppleHealthImport; counts: Counts; disabled: boolean; onReview: (name: string, bundle: FhirBundle) => Promise<void>; onDiscard: () => void }) {
  const { t, i18n } = useTranslation(NAMESPACES);
  const clinicalHeading = useId();
  const measuresHeading = useId();
  const clinical = useAppleHealthClinical();
  const adder = useAddAppleHealthMeasurements();
  const [error, setError] = useState<string | null>(null);
  const present = MEASURES.filter((m) => counts.measures[m].read > 0);
  const absent = MEASURES.filter((m) => counts.measures[m].read === 0);
  const [ticked, setTicked] = useState<Set<Measure>>(() => new Set(present.filter((m) => counts.measures[m].kept > 0)));
  const adding = [...ticked].reduce((sum, m) => sum + counts.measures[m].kept, 0);
  const name = (m: Measure) => t(`records:choices.measure.${m}`);
  const day = (value: string) => formatIsoDate(value, i18n.language);

  const review = async () => {
    setError(null);
    try {
      const { bundle } = await clinical.mutateAsync(data.id);
      await onReview(data.file_name, bundle);
    } catch (err) {
      setError(failureText(t('recordTransfer:import.refused', { name: data.file_name }), err, t('recordTransfer:appleHealth.tryAgain')));
    }
  };
  const add = async () => {
    setError(null);
    try {
      await adder.mutateAsync({ id: data.id, measures: [...ticked] });
    } catch (err) {
      setError(failureText(t('recordTransfer:import.refused', { name: data.file_name }), err, t('recordTransfer:appleHealth.tryAgain')));
    }
  };
  const toggle = (m: Measure, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(m);
    else next.delete(m);
    setTicked(next);
  };
  const details = (m: Measure) => {
    const c = counts.measures[m];
    return [
      t('recordTransfer:appleHealth.measurements.kept', { count: c.kept }),
      c.from && c.to ? (c.from === c.to ? day(c.from) : t('recordTransfer:appleHealth.measurements.between', { from: day(c.from), to: day(c.to) })) : '',
      c.refused ? t('recordTransfer:appleHealth.measurements.refused', { count: c.refused }) : '',
    ]
      .filter(Boolean)
      .join(' · ');
  };

  return (
    <Box sx={{ mt: 2, display: 'grid', gap: 3 }}>
      <Box component="section" aria-labelledby={clinicalHeading}>
        <Typography id={clinicalHeading} component="h4" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('recordTransfer:appleHealth.clinical.title')}
        </Typography>
        {counts.clinical.read > 0 ? (
          <>
            <Typography color="text.secondary" sx={{ mb: 1 }}>
              {t('recordTransfer:appleHealth.clinical.text')}
            </Typography>
            <Typography sx={{ mb: 1.5 }}>
              {[t('recordTransfer:appleHealth.clinical.found', { count: counts.clinical.read }), counts.clinical.failed ? t('recordTransfer:appleHealth.clinical.failed', { count: counts.clinical.failed }) : ''].filter(Boolean).join(' ')}
            </Typography>
            <Button variant="outlined" onClick={() => void review()} disabled={disabled || clinical.isPending} startIcon={clinical.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}>
              {t('recordTransfer:appleHealth.clinical.review', { count: counts.clinical.read })}
            </Button>
          </>
        ) : (
          <Typography color="text.secondary">
            {[t('recordTransfer:appleHealth.clinical.none'), counts.clinical.failed ? t('recordTransfer:appleHealth.clinical.failed', { count: counts.clinical.failed }) : ''].filter(Boolean).join(' ')}
          </Typography>
        )}
      </Box>
      <Box component="section" aria-labelledby={measuresHeading}>
        <Typography id={measuresHeading} component="h4" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('recordTransfer:appleHealth.measurements.title')}
        </Typography>
        {present.length > 0 ? (
          <>
            <Typography color="text.secondary" sx={{ mb: 1.5 }}>
              {t('recordTransfer:appleHealth.measurements.text')}
            </Typography>
            <Box component="ul" aria-labelledby={measuresHeading} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1 }}>
              {present.map((m) => (
                <Paper component="li" variant="outlined" key={m} sx={{ borderRadius: 3, px: 1.5, py: 1 }}>
                  <FormControlLabel
                    sx={{ alignItems: 'flex-start', m: 0, width: '100%' }}
                    control={<Checkbox checked={ticked.has(m)} disabled={disabled || adder.isPending || counts.measures[m].kept === 0} onChange={(e) => toggle(m, e.target.checked)} sx={{ mt: -0.5 }} />}
                    label={
                      <Box sx={{ minWidth: 0, pt: 0.5 }}>
                        <Typography sx={{ fontWeight: 600 }}>{name(m)}</Typography>
                        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                          {details(m)}
                        </Typography>
                      </Box>
                    }
                  />
                </Paper>
              ))}
            </Box>
          </>
        ) : (
          <Typography color="text.secondary">{t('recordTransfer:appleHealth.measurements.none')}</Typography>
        )}
        {absent.length > 0 && <Typography sx={{ mt: 1.5 }}>{t('recordTransfer:appleHealth.measurements.notIn', { measures: absent.map(name).join(', ') })}</Typography>}
      </Box>
      {counts.problems.length > 0 && (
        <Box component="details" sx={{ '& > summary': { cursor: 'pointer', fontWeight: 600 } }}>
          <Typography component="summary">{t('recordTransfer:appleHealth.problems')}</Typography>
          <Box component="ul" lang="en" sx={{ mt: 1, mb: 0, pl: 3 }}>
            {counts.problems.map((problem) => (
              <Typography component="li" variant="body2" key={problem} sx={{ overflowWrap: 'anywhere' }}>
                {problem}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
      {error && <Alert severity="error">{error}</Alert>}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        {present.length > 0 && (
          <Button variant="contained" onClick={() => void add()} disabled={disabled || adding === 0 || adder.isPending} startIcon={adder.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}>
            {t('recordTransfer:appleHealth.measurements.add', { count: adding })}
          </Button>
        )}
        <Button onClick={onDiscard} disabled={adder.isPending}>
          {t('recordTransfer:appleHealth.discard')}
        </Button>
      </Box>
    </Box>
  );
}

/** The measurements added: how many, how many were there already; the way to the biometrics. */
function DoneAlert({ data }: { data: AppleHealthImport }) {
  const { t } = useTranslation(NAMESPACES);
  const { clientId } = useOrganizationContext();
  const m = data.measurements ?? { imported: 0, duplicates: 0, skipped: 0, invalid: 0 };
  return (
    <Alert severity={m.imported > 0 ? 'success' : 'info'} sx={{ mb: 2 }}>
      {[
        t('recordTransfer:appleHealth.measurements.added', { count: m.imported }),
        m.duplicates ? t('recordTransfer:import.summary.duplicate', { count: m.duplicates }) : '',
        m.skipped ? t('recordTransfer:import.summary.skipped', { count: m.skipped }) : '',
        m.invalid ? t('recordTransfer:import.summary.invalid', { count: m.invalid }) : '',
      ]
        .filter(Boolean)
        .join(' ')}{' '}
      <Link component={RouterLink} to={paths.recordList(clientId, 'biometrics')} color="inherit" sx={{ fontWeight: 600 }}>
        {t('recordTransfer:appleHealth.measurements.view')}
      </Link>
    </Alert>
  );
}
