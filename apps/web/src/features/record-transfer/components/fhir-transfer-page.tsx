import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip, { type ChipProps } from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import Download from '@mui/icons-material/Download';
import UploadFile from '@mui/icons-material/UploadFile';
import LinkIcon from '@mui/icons-material/Link';
import type { FhirConvertResult, FhirImportItem, FhirImportResult } from '@healthbook/shared/contracts/exports';
import { FHIR_CONVERT_MAX_BYTES, FHIR_IMPORT_MAX_BYTES } from '@healthbook/shared/sharing';
import { HubPage } from '../../../components/hub-page';
import { visuallyHidden } from '../../../components/visually-hidden';
import { useCurrentUser } from '../../../lib/auth';
import { saveBlob } from '../../../lib/files';
import { applyServerErrors } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { categoryName } from '../../../lib/record-text';
import { useExportFhir } from '../api/export-fhir';
import { useConvertDocument, useKeepDocument } from '../api/convert-document';
import { useImportFhir, usePreviewFhirImport, type FhirBundle } from '../api/import-fhir';
import { needsPasscode, openShl, parseShl, ShlError } from '../api/smart-health-link';
import { detectImportSource, isZip } from '../import-source';
import { AppleHealthImportSection, useAppleHealthFlow } from './apple-health-import';
import { useRecordAccess } from '../../../lib/record-access';

const NAMESPACES = ['recordTransfer', 'records', 'healthRecords'] as const;
/** FHIR files (JSON), C-CDA documents (XML) and Apple Health exports (zip); what a file is, its content decides. */
const ACCEPTED = '.json,.xml,.zip,application/json,application/fhir+json,application/xml,text/xml,application/zip';
/** Entries shown per page of the preview (a real patient's file holds thousands). */
const PAGE_SIZE = 50;

type Notice = { severity: 'success' | 'error' | 'info'; text: string } | null;

/** A file name of a person's name, in their own script ("maria-papadopoulou"). */
function fileStem(first: string | undefined, last: string | undefined): string {
  const stem = `${first ?? ''} ${last ?? ''}`
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return stem || 'health-record';
}

/** /health-record/fhir — the record as a FHIR R4 file, and records brought in after a preview: another portal's FHIR file, a C-CDA document, a SMART Health Link. */
export default function FhirTransferPage() {
  // Importing writes records: not with read-only access to the viewed record.
  const { canWrite } = useRecordAccess();
  const { t } = useTranslation(NAMESPACES);
  const { clientId } = useOrganizationContext();
  return (
    <HubPage pageTitle={t('recordTransfer:pageTitle')} intro={t('recordTransfer:intro')} maxWidth={1100} back={{ to: paths.healthRecords(clientId), label: t('healthRecords:backToOverview') }}>
      <Box sx={{ display: 'grid', gap: 3 }}>
        <ExportPanel />
        {canWrite && <ImportPanel />}
      </Box>
    </HubPage>
  );
}

function ExportPanel() {
  const { t } = useTranslation(NAMESPACES);
  const user = useCurrentUser();
  const exporter = useExportFhir();
  const [includePrivate, setIncludePrivate] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const download = async () => {
    setNotice(null);
    try {
      const blob = await exporter.mutateAsync({ includePrivate });
      saveBlob(blob, `${fileStem(user?.first_name, user?.last_name)}-fhir.json`);
      setNotice({ severity: 'success', text: t('recordTransfer:export.done') });
    } catch (error) {
      setNotice({ severity: 'error', text: applyServerErrors(error, { fallback: t('recordTransfer:export.failed') }) ?? t('recordTransfer:export.failed') });
    }
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="fhir-export" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id="fhir-export" variant="h2" sx={{ mb: 1 }}>
        {t('recordTransfer:export.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('recordTransfer:export.text')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Button variant="contained" startIcon={exporter.isPending ? <CircularProgress size={18} color="inherit" aria-hidden /> : <Download />} onClick={() => void download()} disabled={exporter.isPending}>
          {exporter.isPending ? t('recordTransfer:export.downloading') : t('recordTransfer:export.download')}
        </Button>
        <FormControlLabel control={<Switch checked={includePrivate} onChange={(e) => setIncludePrivate(e.target.checked)} />} label={t('recordTransfer:export.includePrivate')} />
      </Box>
      {notice && (
        <Alert severity={notice.severity} sx={{ mt: 2 }} onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
    </Paper>
  );
}

/** What is being imported (a file, or a SMART Health Link's content) and what the server said it holds. */
interface Chosen {
  name: string;
  bundle: FhirBundle;
  preview: FhirImportResult;
  /** A converted C-CDA: the original, kept in the Document Center once the import is accepted. */
  original?: { document: string; fileName: string };
  /** Sections of a converted document that become no records. */
  unconverted?: string[];
  /** Files of a SMART Health Link this page does not import (their content types). */
  unsupported?: string[];
}

type Converted = Omit<Chosen, 'preview'>;

function ImportPanel() {
  const { t } = useTranslation(NAMESPACES);
  const { clientId } = useOrganizationContext();
  const input = useRef<HTMLInputElement>(null);
  const preview = usePreviewFhirImport();
  const importer = useImportFhir();
  const converter = useConvertDocument();
  const keeper = useKeepDocument();
  const [reading, setReading] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [ticked, setTicked] = useState<Set<string>>(new Set());
  const [result, setResult] = useState<FhirImportResult | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const appleHealth = useAppleHealthFlow();

  const reset = () => {
    setChosen(null);
    setResult(null);
    setTicked(new Set());
    if (input.current) input.current.value = '';
  };

  /** The one preview, whatever the source: what the Bundle holds, its new entries ticked. */
  const showPreview = async (source: Converted) => {
    try {
      const answer = await preview.mutateAsync(source.bundle);
      setChosen({ ...source, preview: answer });
      setTicked(new Set(answer.items.filter((i) => i.status === 'new').map((i) => i.key)));
    } catch (error) {
      setNotice({ severity: 'error', text: `${t('recordTransfer:import.refused', { name: source.name })} ${applyServerErrors(error, { fallback: t('recordTransfer:import.failed') }) ?? ''}`.trim() });
      if (input.current) input.current.value = '';
    }
  };

  const read = async (file: File | undefined) => {
    if (!file) return;
    reset();
    setNotice(null);
    // An Apple Health export (a zip, by its first bytes) has its own way in.
    if (await isZip(file)) return void appleHealth.start(file);
    if (file.size > FHIR_IMPORT_MAX_BYTES) return setNotice({ severity: 'error', text: t('recordTransfer:import.tooLarge', { name: file.name }) });
    setReading(t('recordTransfer:import.reading', { name: file.name }));
    try {
      const text = await file.text();
      // What the file is comes from its content, never its name.
      const source = detectImportSource(text);
      if (source.kind === 'fhir') return await showPreview({ name: file.name, bundle: source.json as FhirBundle });
      if (source.kind === 'otherXml') return setNotice({ severity: 'error', text: t('recordTransfer:import.notCcda', { name: file.name }) });
      if (source.kind === 'unknown') return setNotice({ severity: 'error', text: t('recordTransfer:import.unknownFile', { name: file.name }) });
      if (file.size > FHIR_CONVERT_MAX_BYTES) return setNotice({ severity: 'error', text: t('recordTransfer:import.ccdaTooLarge', { name: file.name }) });
      setReading(t('recordTransfer:import.converting', { name: file.name }));
      let converted: FhirConvertResult;
      try {
        converted = await converter.mutateAsync({ format: 'ccda', document: text, file_name: file.name });
      } catch (error) {
        setNotice({ severity: 'error', text: `${t('recordTransfer:import.refused', { name: file.name })} ${applyServerErrors(error, { fallback: t('recordTransfer:import.failed') }) ?? ''}`.trim() });
        if (input.current) input.current.value = '';
        return;
      }
      await showPreview({ name: file.name, bundle: converted.bundle as FhirBundle, original: { document: text, fileName: file.name }, unconverted: converted.unconverted_sections });
    } finally {
      setReading(null);
    }
  };

  /** Records from elsewhere (a SMART Health Link, an Apple Health export's clinical records) to the one preview. */
  const openBundle = async (source: Converted) => {
    reset();
    setNotice(null);
    await showPreview(source);
  };

  const submit = async () => {
    if (!chosen) return;
    setNotice(null);
    let done: FhirImportResult;
    try {
      done = await importer.mutateAsync({ bundle: chosen.bundle, accept: [...ticked] });
    } catch (error) {
      return setNotice({ severity: 'error', text: applyServerErrors(error, { fallback: t('recordTransfer:import.failed') }) ?? t('recordTransfer:import.failed') });
    }
    setResult(done);
    setChosen(null);
    if (input.current) input.current.value = '';
    // The original document is kept once the import is accepted (a preview writes nothing).
    if (chosen.original) {
      try {
        const kept = await keeper.mutateAsync({ format: 'ccda', document: chosen.original.document, file_name: chosen.original.fileName });
        setNotice({ severity: 'success', text: kept.kept_documents.length > 1 ? t('recordTransfer:import.keptWithCopy') : t('recordTransfer:import.kept') });
      } catch (error) {
        setNotice({ severity: 'error', text: `${t('recordTransfer:import.notKept')} ${applyServerErrors(error, { fallback: '' }) ?? ''}`.trim() });
      }
    }
  };

  const busy = reading !== null || importer.isPending || keeper.isPending || appleHealth.busy;
  return (
    <Paper variant="outlined" component="section" aria-labelledby="fhir-import" sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id="fhir-import" variant="h2" sx={{ mb: 1 }}>
        {t('recordTransfer:import.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('recordTransfer:import.text')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
        <Button variant={chosen ? 'outlined' : 'contained'} startIcon={<UploadFile />} onClick={() => input.current?.click()} disabled={busy}>
          {chosen ? t('recordTransfer:import.chooseAnother') : t('recordTransfer:import.choose')}
        </Button>
        <input ref={input} type="file" accept={ACCEPTED} hidden aria-label={t('recordTransfer:import.choose')} onChange={(e) => void read(e.target.files?.[0])} />
        {reading && (
          <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <CircularProgress size={20} aria-hidden />
            <Typography variant="body2">{reading}</Typography>
          </Box>
        )}
      </Box>
      <SmartHealthLinkForm disabled={busy} onOpened={(bundle, name, unsupported) => openBundle({ name, bundle, unsupported })} />
      <AppleHealthImportSection flow={appleHealth} disabled={reading !== null || importer.isPending || keeper.isPending} onReview={(name, bundle) => openBundle({ name, bundle })} />
      {notice && (
        <Alert severity={notice.severity} sx={{ mt: 2 }} onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      )}
      {result && (
        <Alert severity={result.imported > 0 ? 'success' : 'info'} sx={{ mt: 2 }} action={<Button component={RouterLink} to={paths.healthRecords(clientId)} color="inherit" size="small">{t('recordTransfer:import.viewRecords')}</Button>}>
          {[
            t('recordTransfer:import.imported', { count: result.imported }),
            result.duplicates ? t('recordTransfer:import.summary.duplicate', { count: result.duplicates }) : '',
            result.skipped ? t('recordTransfer:import.summary.skipped', { count: result.skipped }) : '',
            result.invalid ? t('recordTransfer:import.summary.invalid', { count: result.invalid }) : '',
          ]
            .filter(Boolean)
            .join(' ')}
        </Alert>
      )}
      {chosen && <PreviewTable chosen={chosen} ticked={ticked} onTick={setTicked} onImport={() => void submit()} onCancel={reset} busy={importer.isPending} />}
    </Paper>
  );
}

/**
 * A SMART Health Link someone shared with the patient, pasted: the browser opens it (manifest,
 * passcode when its flag P says so, decryption), then its FHIR content goes to the preview.
 */
function SmartHealthLinkForm({ disabled, onOpened }: { disabled: boolean; onOpened: (bundle: FhirBundle, name: string, unsupported: string[]) => Promise<void> }) {
  const { t } = useTranslation(NAMESPACES);
  const user = useCurrentUser();
  const { org } = useOrganizationContext();
  const headingId = useId();
  const [text, setText] = useState('');
  const [passcode, setPasscode] = useState('');
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const link = text.trim() ? parseShl(text) : null;
  const askPasscode = link !== null && needsPasscode(link);

  const open = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!link) return setError(t('recordTransfer:shl.errors.invalid'));
    if (askPasscode && !passcode) return setError(t('recordTransfer:shl.errors.passcodeRequired'));
    setOpening(true);
    try {
      // The recipient, as the SHL rules ask the viewer to name it: who opens the link, and where.
      const recipient = [`${user?.first_name ?? ''} ${user?.last_name ?? ''}`.trim(), org.org_name].filter(Boolean).join(', ');
      const content = await openShl(link, { recipient: recipient || org.name, ...(askPasscode ? { passcode } : {}) });
      if (!content.bundle) return setError(t('recordTransfer:shl.errors.nothingToImport'));
      setText('');
      setPasscode('');
      await onOpened(content.bundle, link.label?.trim() || t('recordTransfer:shl.unnamed'), content.unsupported);
    } catch (err) {
      if (!(err instanceof ShlError)) return setError(t('recordTransfer:shl.errors.unreachable'));
      const parts = [t(`recordTransfer:shl.errors.${err.problem}`)];
      if (err.problem === 'passcodeWrong') {
        // The tries left in the reader's language; else the link's server's own words, if it gave some.
        if (err.remainingAttempts !== undefined) parts.push(t('recordTransfer:shl.errors.attemptsLeft', { count: err.remainingAttempts }));
        else if (err.serverText) parts.push(err.serverText);
      }
      setError(parts.join(' '));
    } finally {
      setOpening(false);
    }
  };

  return (
    <Box component="form" aria-labelledby={headingId} noValidate onSubmit={(e) => void open(e)} sx={{ mt: 3 }}>
      <Typography id={headingId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, fontSize: '1.125rem', mb: 0.5 }}>
        {t('recordTransfer:shl.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('recordTransfer:shl.text')}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
        <TextField
          label={t('recordTransfer:shl.link')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={disabled || opening}
          autoComplete="off"
          spellCheck={false}
          sx={{ flex: '1 1 320px' }}
        />
        {askPasscode && (
          <TextField
            label={t('recordTransfer:shl.passcode')}
            type="password"
            value={passcode}
            onChange={(e) => setPasscode(e.target.value)}
            disabled={disabled || opening}
            autoComplete="off"
            helperText={t('recordTransfer:shl.passcodeHelp')}
            sx={{ flex: '0 1 240px' }}
          />
        )}
        <Button type="submit" variant="outlined" startIcon={opening ? <CircularProgress size={18} color="inherit" aria-hidden /> : <LinkIcon />} disabled={disabled || opening || !text.trim()} sx={{ mt: 1 }}>
          {opening ? t('recordTransfer:shl.opening') : t('recordTransfer:shl.open')}
        </Button>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {error}
        </Alert>
      )}
    </Box>
  );
}

const STATUS_COLORS: Record<FhirImportItem['status'], ChipProps['color']> = { new: 'success', duplicate: 'default', skipped: 'default', invalid: 'warning' };

function PreviewTable({ chosen, ticked, onTick, onImport, onCancel, busy }: { chosen: Chosen; ticked: Set<string>; onTick: (next: Set<string>) => void; onImport: () => void; onCancel: () => void; busy: boolean }) {
  const { t } = useTranslation(NAMESPACES);
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const headingId = useId();
  const section = useRef<HTMLElement>(null);
  const [page, setPage] = useState(1);
  // A preview opened from further up the page (an Apple Health export's long summary sits between) is brought into sight.
  // Braces: nothing returned (scrollIntoView answers a promise in newer browsers, which React would take for a cleanup).
  useEffect(() => {
    section.current?.scrollIntoView?.({ block: 'start' });
  }, []);
  const { items } = chosen.preview;
  const counts = { new: 0, duplicate: 0, skipped: 0, invalid: 0 };
  for (const item of items) counts[item.status]++;
  const fresh = items.filter((i) => i.status === 'new');
  const allTicked = fresh.length > 0 && fresh.every((i) => ticked.has(i.key));
  const pages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  const shown = items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);

  const toggle = (key: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(key);
    else next.delete(key);
    onTick(next);
  };
  const categoryOf = (item: FhirImportItem) => (item.category ? categoryName(t, item.category) : '');
  const label = (item: FhirImportItem) => t('recordTransfer:import.tick', { title: item.title });
  const status = (item: FhirImportItem) => (
    <Box>
      <Chip size="small" color={STATUS_COLORS[item.status]} variant={item.status === 'new' ? 'filled' : 'outlined'} label={t(`recordTransfer:import.status.${item.status}`)} />
      {item.reason && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {item.reason}
        </Typography>
      )}
    </Box>
  );
  const tick = (item: FhirImportItem) => <Checkbox checked={ticked.has(item.key)} disabled={item.status !== 'new' || busy} onChange={(e) => toggle(item.key, e.target.checked)} slotProps={{ input: { 'aria-label': label(item) } }} />;

  return (
    <Box component="section" ref={section} aria-labelledby={headingId} sx={{ mt: 3, scrollMarginTop: 80 }}>
      <Typography id={headingId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, fontSize: '1.125rem', mb: 0.5, overflowWrap: 'anywhere' }}>
        {t('recordTransfer:import.previewTitle', { name: chosen.name })}
      </Typography>
      <Typography sx={{ mb: 2 }}>
        {[
          t('recordTransfer:import.summary.new', { count: counts.new }),
          counts.duplicate ? t('recordTransfer:import.summary.duplicate', { count: counts.duplicate }) : '',
          counts.skipped ? t('recordTransfer:import.summary.skipped', { count: counts.skipped }) : '',
          counts.invalid ? t('recordTransfer:import.summary.invalid', { count: counts.invalid }) : '',
        ]
          .filter(Boolean)
          .join(' ')}
      </Typography>
      {chosen.unconverted && chosen.unconverted.length > 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('recordTransfer:import.unconverted', { sections: chosen.unconverted.join(', ') })}
        </Alert>
      )}
      {chosen.original && <Typography sx={{ mb: 2 }}>{t('recordTransfer:import.keepsOriginal')}</Typography>}
      {chosen.unsupported && chosen.unsupported.length > 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('recordTransfer:shl.unsupported', { count: chosen.unsupported.length, types: [...new Set(chosen.unsupported)].join(', ') })}
        </Alert>
      )}
      {fresh.length > 1 && (
        <FormControlLabel
          sx={{ mb: 1 }}
          control={<Checkbox checked={allTicked} indeterminate={!allTicked && fresh.some((i) => ticked.has(i.key))} disabled={busy} onChange={(e) => onTick(new Set(e.target.checked ? fresh.map((i) => i.key) : []))} />}
          label={t('recordTransfer:import.tickAll')}
        />
      )}
      {wide ? (
        <Paper variant="outlined" sx={{ borderRadius: 3, overflow: 'hidden' }}>
          <Table size="small" aria-labelledby={headingId}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Typography component="span" sx={visuallyHidden}>
                    {t('recordTransfer:import.columns.keep')}
                  </Typography>
                </TableCell>
                <TableCell>{t('recordTransfer:import.columns.record')}</TableCell>
                <TableCell>{t('recordTransfer:import.columns.category')}</TableCell>
                <TableCell>{t('recordTransfer:import.columns.date')}</TableCell>
                <TableCell>{t('recordTransfer:import.columns.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((item) => (
                <TableRow key={item.key}>
                  <TableCell padding="checkbox">{tick(item)}</TableCell>
                  <TableCell component="th" scope="row">
                    <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                      {item.title}
                    </Typography>
                    <Typography variant="caption" color="text.secondary">
                      {item.resource_type}
                    </Typography>
                  </TableCell>
                  <TableCell>{categoryOf(item) || '—'}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{item.date ?? ''}</TableCell>
                  <TableCell sx={{ maxWidth: 320 }}>{status(item)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : (
        <Box component="ul" aria-labelledby={headingId} sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
          {shown.map((item) => (
            <Paper component="li" variant="outlined" key={item.key} sx={{ p: 1.5, borderRadius: 3, display: 'flex', gap: 1, alignItems: 'flex-start' }}>
              {tick(item)}
              <Box sx={{ minWidth: 0, pt: 1 }}>
                <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{item.title}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 0.75 }}>
                  {[categoryOf(item), item.date, item.resource_type].filter(Boolean).join(' · ')}
                </Typography>
                {status(item)}
              </Box>
            </Paper>
          ))}
        </Box>
      )}
      {pages > 1 && (
        <Box component="nav" aria-label={t('recordTransfer:import.pagination')} sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Pagination count={pages} page={page} onChange={(_e, p) => setPage(p)} color="primary" />
        </Box>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, mt: 3 }}>
        <Button variant="contained" onClick={onImport} disabled={ticked.size === 0 || busy} startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}>
          {busy ? t('recordTransfer:import.importing') : t('recordTransfer:import.submit', { count: ticked.size })}
        </Button>
        <Button onClick={onCancel} disabled={busy}>
          {t('recordTransfer:import.cancel')}
        </Button>
      </Box>
    </Box>
  );
}
