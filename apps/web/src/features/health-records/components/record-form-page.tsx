import { Fragment, useMemo, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { SOURCE_RECORD_EDITABLE } from '@healthbook/shared/sources';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import { CHOICE_LISTS, COUNTRY_CODES, countryName } from '@healthbook/shared/records/choices';
import type { CategoryDefinition, RecordField } from '@healthbook/shared/records/fields';
import { localToday, type DatePart, type MedicalDate } from '@healthbook/shared/records/medical-date';
import { checkRecord, type RuleMessage } from '@healthbook/shared/records/rules';
import { formatDosing } from '@healthbook/shared/records/format';
import { displayUnit, fromDisplay, toDisplay, type Measure } from '@healthbook/shared/records/units';
import { DateField } from '../../../components/date-field';
import { useUnsavedChangesGuard } from '../../../components/dialogs/unsaved-changes';
import { flash } from '../../../components/flash-message';
import { HubPage } from '../../../components/hub-page';
import { MedicalDateField } from '../../../components/medical-date-dialog';
import { ApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/auth';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { useRecord } from '../api/get-record';
import { useSaveRecord } from '../api/save-record';
import { categoryName, fieldLabel, sharedT, useRecordText } from '../../../lib/record-text';

import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';
import { ProvenanceNotice } from './provenance-chip';

/** What the form holds for each field: text as typed, flags, a medical date as a value. */
type FormValue = string | boolean | MedicalDate;
type FormValues = Record<string, FormValue>;

/** /health-record/:category/new and /health-record/:category/:id/edit — the category's form, derived from its declaration. */
export default function RecordFormPage() {
  const { category: key = '', id } = useParams();
  const category = categoryDefinition(key);
  const { clientId } = useOrganizationContext();
  const recordId = id === undefined ? null : /^[0-9]{1,10}$/.test(id) ? Number(id) : NaN;
  if (!category || Number.isNaN(recordId)) return <Navigate to={paths.notFound(clientId)} replace />;
  return <WritableOnly>{recordId === null ? <RecordForm category={category} /> : <EditRecord category={category} id={recordId} />}</WritableOnly>;
}

/** Adding and changing records: not for read-only access to the viewed record (said instead of the form). */
function WritableOnly({ children }: { children: React.ReactNode }) {
  const { canWrite, readOnly } = useRecordAccess();
  if (canWrite) return children;
  return readOnly ? <Box sx={{ maxWidth: 960, mx: 'auto', px: { xs: 2, sm: 4 }, py: { xs: 3, md: 5 } }}><ReadOnlyNotice /></Box> : null;
}

function EditRecord({ category, id }: { category: CategoryDefinition; id: number }) {
  const record = useRecord(category.key, id);
  const { t } = useRecordText();
  if (record.isPending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={categoryName(t, category.key)} />
      </Box>
    );
  if (record.isError) return <Alert severity="error" sx={{ m: 3 }}>{record.error instanceof ApiError && record.error.status === 404 ? t('healthRecords:detail.notFound') : t('healthRecords:loadFailed')}</Alert>;
  return <RecordForm category={category} record={record.data} />;
}

/** The form's starting values: the record's, or a new record's (dates that default to today filled in). */
function initialValues(category: CategoryDefinition, record: HealthRecord | undefined, imperial: boolean): FormValues {
  const values: FormValues = { private: record?.private === true };
  for (const field of category.fields) {
    const value = record?.[field.name];
    switch (field.kind) {
      case 'medicalDate':
        values[field.name] = { date: (value as string | null) ?? null, part: (record?.[`${field.name}_part`] as DatePart | null) ?? null };
        break;
      case 'boolean':
        values[field.name] = value === true;
        break;
      case 'measurement':
        values[field.name] = typeof value === 'number' && record?.measure ? String(toDisplay(record.measure as Measure, value, imperial)) : '';
        break;
      case 'date':
        values[field.name] = typeof value === 'string' ? value : !record && field.defaultToday ? localToday() : '';
        break;
      default:
        values[field.name] = value === null || value === undefined ? '' : String(value);
    }
  }
  return values;
}

/** The request body: what the API takes for each field (a measurement back in its stored unit). */
function payloadOf(category: CategoryDefinition, values: FormValues, imperial: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { private: values.private === true };
  for (const field of category.fields) {
    const value = values[field.name];
    if (field.kind === 'medicalDate') {
      const md = value as MedicalDate;
      body[field.name] = md.date;
      body[`${field.name}_part`] = md.part;
    } else if (field.kind === 'boolean') body[field.name] = value === true;
    else if (field.kind === 'measurement') {
      const text = String(value).trim().replace(',', '.');
      const measure = values.measure as Measure | '';
      body[field.name] = text === '' ? null : measure && /^[-+]?[0-9]*\.?[0-9]+$/.test(text) ? fromDisplay(measure, Number(text), imperial) : text;
    } else body[field.name] = String(value).trim() === '' ? null : String(value).trim();
  }
  return body;
}

function RecordForm({ category, record }: { category: CategoryDefinition; record?: HealthRecord }) {
  const { clientId } = useOrganizationContext();
  const { t, locale } = useRecordText();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { patient, canSeePrivate } = useRecordAccess();
  const imperial = user?.imperial_units === true;
  const today = localToday();
  const initial = useMemo(() => initialValues(category, record, imperial), [category, record, imperial]);
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useSaveRecord();
  const dirty = !saved && JSON.stringify(values) !== JSON.stringify(initial);
  const guard = useUnsavedChangesGuard(dirty);
  const one = categoryName(t, category.key);
  const title = t(record ? 'healthRecords:form.editTitle' : 'healthRecords:form.newTitle', { type: one.toLowerCase(), context: category.key });
  const measure = (values.measure as Measure | '') || null;
  const dosing = category.readAs?.find((r) => r.format === 'dosing');
  // A record a connected source brought changes at the source: here only its note and the private mark.
  const synced = record?.provenance ? record.provenance : null;
  const editable = (name: string) => !synced || (SOURCE_RECORD_EDITABLE as readonly string[]).includes(name);

  /** A rule's message in the reader's language (a measurement's limits in the reader's units). */
  const message = (field: string, m: RuleMessage) => {
    if (field === 'value' && measure && m.vars && ('min' in m.vars || 'max' in m.vars)) {
      const unit = displayUnit(measure, imperial);
      const shown = (n: string | number) => `${toDisplay(measure, Number(n), imperial)} ${unit.unit}`;
      return t(m.key, { ...m.vars, ...('min' in m.vars ? { min: shown(m.vars.min!) } : {}), ...('max' in m.vars ? { max: shown(m.vars.max!) } : {}) });
    }
    return t(m.key, m.vars);
  };

  const set = (name: string, value: FormValue) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => {
      if (!e[name]) return e;
      const { [name]: _gone, ...rest } = e;
      return rest;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const full = payloadOf(category, values, imperial);
    // Of a synced record only what may change is sent (PATCH): the source's values are not the form's to check.
    const body = synced ? Object.fromEntries(Object.entries(full).filter(([name]) => editable(name))) : full;
    const checked = synced ? { errors: null } : checkRecord(category, body, { today, dob: user?.dob ?? null, creating: !record });
    if (checked.errors) {
      const found: Record<string, string> = {};
      for (const [field, list] of Object.entries(checked.errors)) found[field.replace(/_part$/, '')] = list.map((m) => message(field, m)).join(' ');
      setErrors(found);
      setFailure(t('healthRecords:form.fixErrors'));
      focusFirst(category, found);
      return;
    }
    try {
      const result = await save.mutateAsync({ category: category.key, ...(record ? { id: record.id } : {}), values: body, partial: synced !== null });
      setSaved(true);
      const text = record ? t('records:messages.edited') : t(`records:categories.${category.key}.saved`);
      // The guard lets this navigation through: the form is saved.
      setTimeout(() => void navigate(paths.recordDetail(clientId, category.key, result.id), { replace: true, state: flash(text) }), 0);
    } catch (error) {
      const found: Record<string, string> = {};
      let general = '';
      if (error instanceof ApiError && error.status < 500 && error.data && typeof error.data === 'object') {
        for (const [key, value] of Object.entries(error.data as Record<string, unknown>)) {
          const text = Array.isArray(value) ? value.join(' ') : String(value);
          const field = key.replace(/_part$/, '');
          if (field in values) found[field] = text;
          else general = `${general} ${text}`.trim();
        }
      }
      setErrors(found);
      setFailure(`${t(`records:categories.${category.key}.saveError`)} ${general}`.trim());
      focusFirst(category, found);
    }
  };

  const back = record ? paths.recordDetail(clientId, category.key, record.id) : paths.recordList(clientId, category.key);
  return (
    <HubPage pageTitle={title} maxWidth={880} back={{ to: back, label: record ? t('healthRecords:form.cancel') : categoryName(t, category.key, true) }}>
      <Paper component="form" variant="outlined" noValidate onSubmit={(e) => void submit(e)} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
        {failure && (
          <Alert severity="error" role="alert" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        {synced && <ProvenanceNotice provenance={synced} sx={{ mb: 2.5 }} />}
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          {category.fields.map((field) =>
            field.name === 'diastolic' && measure !== 'blood_pressure' ? null : (
              <Fragment key={field.name}>
              <Box sx={{ gridColumn: wide(field) ? '1 / -1' : undefined }}>
                <FieldInput
                  category={category}
                  field={field}
                  value={values[field.name]!}
                  error={errors[field.name]}
                  onChange={(v) => set(field.name, v)}
                  dob={patient?.dob ?? user?.dob ?? null}
                  today={today}
                  measure={measure}
                  imperial={imperial}
                  locale={locale}
                  disabled={!editable(field.name)}
                />
              </Box>
              {dosing?.fields.at(-1) === field.name && <DosingPreview category={category} values={values} imperial={imperial} />}
              </Fragment>
            ),
          )}
          {canSeePrivate && (
            <Box sx={{ gridColumn: '1 / -1' }}>
              <FormControlLabel
                control={<Checkbox checked={values.private === true} onChange={(e) => set('private', e.target.checked)} name="private" slotProps={{ input: { 'aria-describedby': 'private-hint' } }} />}
                label={fieldLabel(t, category, 'private')}
              />
              <FormHelperText id="private-hint" sx={{ mt: -0.5, ml: 4 }}>
                {t('records:hints.private')}
              </FormHelperText>
            </Box>
          )}
        </Box>
        <Stack direction="row" spacing={1.5} sx={{ mt: 3, justifyContent: 'flex-end' }}>
          <Button onClick={() => void navigate(back)}>{t('healthRecords:form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {save.isPending ? t('healthRecords:form.saving') : t('healthRecords:form.save')}
          </Button>
        </Stack>
      </Paper>
      {guard}
    </HubPage>
  );
}

/** The dosing fields as the instruction they make, as lists, details, shares and the PDF will read it. */
function DosingPreview({ category, values, imperial }: { category: CategoryDefinition; values: FormValues; imperial: boolean }) {
  const { t, locale } = useRecordText();
  const sentence = formatDosing(sharedT(t), locale, payloadOf(category, values, imperial));
  return (
    <Box sx={{ gridColumn: '1 / -1' }}>
      <Alert severity={sentence ? 'info' : 'warning'} variant="outlined" icon={false} role="status" aria-live="polite" data-testid="dosing-preview">
        <Typography component="span" variant="body2" sx={{ fontWeight: 600, mr: 1 }}>
          {t('healthRecords:form.preview.title')}:
        </Typography>
        <Typography component="span" variant="body2">
          {sentence || t('healthRecords:form.preview.empty')}
        </Typography>
      </Alert>
    </Box>
  );
}

/** Long texts take the whole width of the form. */
const wide = (field: RecordField) => field.kind === 'text' && field.multiline === true;

/** Moves the focus to the first field with a message (in the form's order). */
function focusFirst(category: CategoryDefinition, errors: Record<string, string>) {
  const first = category.fields.find((f) => errors[f.name]);
  if (!first) return;
  setTimeout(() => (document.querySelector<HTMLElement>(`[name="${first.name}"]`) ?? document.getElementById(`field-${first.name}`))?.focus(), 0);
}

interface FieldInputProps {
  category: CategoryDefinition;
  field: RecordField;
  value: FormValue;
  error: string | undefined;
  onChange: (value: FormValue) => void;
  dob: string | null;
  today: string;
  measure: Measure | null;
  imperial: boolean;
  locale: string;
  /** Shown but not changeable (a field a connected source keeps). */
  disabled?: boolean;
}

/** One field's control, by its kind. */
function FieldInput({ category, field, value, error, onChange, dob, today, measure, imperial, locale, disabled = false }: FieldInputProps) {
  const { t } = useRecordText();
  const label = fieldLabel(t, category, field.name);
  const common = { id: `field-${field.name}`, name: field.name, label, fullWidth: true, required: field.required === true, error: Boolean(error), helperText: error, disabled };
  switch (field.kind) {
    case 'text':
      return (
        <TextField
          {...common}
          value={value as string}
          onChange={(e) => onChange(e.target.value)}
          multiline={field.multiline}
          minRows={field.multiline ? 3 : undefined}
          slotProps={{ htmlInput: { maxLength: field.max } }}
        />
      );
    case 'number':
    case 'measurement': {
      const unit = field.kind === 'measurement' && measure ? displayUnit(measure, imperial).unit : field.name === 'diastolic' ? 'mmHg' : null;
      const hint = field.kind === 'number' && field.min !== undefined && field.max !== undefined && field.integer ? `${field.min}–${field.max}` : undefined;
      return (
        <TextField
          {...common}
          value={value as string}
          onChange={(e) => onChange(e.target.value)}
          helperText={error ?? (field.hint ? t(`records:hints.${field.hint}`) : hint)}
          slotProps={{
            htmlInput: { inputMode: field.kind === 'number' && field.integer ? 'numeric' : 'decimal' },
            ...(unit ? { input: { endAdornment: <InputAdornment position="end">{unit}</InputAdornment> } } : {}),
          }}
        />
      );
    }
    case 'boolean':
      return (
        <FormControlLabel disabled={disabled} control={<Checkbox id={common.id} name={field.name} checked={value === true} onChange={(e) => onChange(e.target.checked)} />} label={label} sx={{ mt: 1 }} />
      );
    case 'choice':
      return (
        <TextField {...common} select value={value as string} onChange={(e) => onChange(e.target.value)}>
          {!field.required && (
            <MenuItem value="">
              <em>{t('healthRecords:form.chooseNone')}</em>
            </MenuItem>
          )}
          {CHOICE_LISTS[field.list].map((choice) => (
            <MenuItem key={choice} value={choice}>
              {t(`records:choices.${field.list}.${choice}`)}
            </MenuItem>
          ))}
        </TextField>
      );
    case 'country': {
      const options = COUNTRY_CODES.map((code) => ({ code, name: countryName(code, locale) })).sort((a, b) => a.name.localeCompare(b.name, locale));
      return (
        <Autocomplete
          disabled={disabled}
          options={options}
          value={options.find((o) => o.code === value) ?? null}
          onChange={(_e, option) => onChange(option?.code ?? '')}
          getOptionLabel={(o) => o.name}
          isOptionEqualToValue={(a, b) => a.code === b.code}
          noOptionsText={t('healthRecords:form.noCountry')}
          renderInput={(params) => <TextField {...params} {...common} />}
        />
      );
    }
    case 'date':
      return <DateField label={label} name={field.name} value={value as string} onChange={onChange} error={error} required={field.required === true} max={today} disabled={disabled} />;
    case 'medicalDate':
      return <MedicalDateField name={field.name} label={label} value={value as MedicalDate} onChange={onChange} error={error} dob={dob} today={today} required={field.required === true} disabled={disabled} />;
  }
}
