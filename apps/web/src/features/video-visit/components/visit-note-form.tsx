import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Visit, VisitNoteBody } from '@healthbook/shared/contracts/appointments';
import type { HealthRecord } from '@healthbook/shared/contracts/records';
import { categoryDefinition } from '@healthbook/shared/records/categories';
import { VISIT_NOTE_FIELDS } from '@healthbook/shared/visits';
import { ApiError } from '../../../lib/api-client';
import { failureText } from '../../../lib/form-errors';
import { useSaveVisitNote, useVisitNote } from '../api/visit';

type NoteField = (typeof VISIT_NOTE_FIELDS)[number];

/** Each field's limit, as the medical-visit category declares it (the server checks the same). */
const LIMITS = Object.fromEntries(
  VISIT_NOTE_FIELDS.map((name) => {
    const field = categoryDefinition('medicalvisit')?.fields.find((f) => f.name === name);
    return [name, field?.kind === 'text' ? field.max : 2000];
  }),
) as Record<NoteField, number>;

const valuesOf = (record: HealthRecord | null | undefined): Record<NoteField, string> =>
  Object.fromEntries(VISIT_NOTE_FIELDS.map((name) => [name, String((record as Record<string, unknown> | null | undefined)?.[name] ?? '')])) as Record<NoteField, string>;

/**
 * The provider's note of the visit: reason, symptoms, findings, diagnosis, treatment and notes,
 * saved as a medical visit of the patient's record with the provider's name and the visit's day
 * (the patient reads it in their medical visits). Saved again, the same record changes.
 */
export function VisitNoteForm({ visit }: { visit: Visit }) {
  const { t } = useTranslation('videoVisit');
  const slot = visit.availability_det_id;
  const note = useVisitNote(slot, true);
  const save = useSaveVisitNote(slot);
  const [values, setValues] = useState<Record<NoteField, string> | null>(null);
  const [errors, setErrors] = useState<Partial<Record<NoteField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  if (note.isPending) return <CircularProgress aria-label={t('note.title')} />;
  if (note.isError) return <Alert severity="error">{failureText(t('note.loadFailed'), note.error)}</Alert>;
  const shown = values ?? valuesOf(note.data);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setErrors({});
    setSaved(false);
    const body: VisitNoteBody = Object.fromEntries(VISIT_NOTE_FIELDS.map((name) => [name, shown[name].trim() || null]));
    try {
      await save.mutateAsync(body);
      setValues(null);
      setSaved(true);
    } catch (error) {
      const fields = error instanceof ApiError && error.status === 400 && error.data && typeof error.data === 'object' ? (error.data as Record<string, unknown>) : null;
      if (fields && VISIT_NOTE_FIELDS.some((name) => Array.isArray(fields[name]))) {
        setErrors(Object.fromEntries(VISIT_NOTE_FIELDS.filter((name) => Array.isArray(fields[name])).map((name) => [name, String((fields[name] as unknown[])[0])])));
      } else setFailure(failureText(t('note.saveFailed'), error));
    }
  };

  return (
    <Box component="form" onSubmit={(e) => void submit(e)} noValidate>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('note.intro', { patient: visit.patient_name })}
      </Typography>
      <Stack spacing={2}>
        {VISIT_NOTE_FIELDS.map((name) => (
          <TextField
            key={name}
            label={t(`note.fields.${name}`)}
            value={shown[name]}
            onChange={(e) => {
              setSaved(false);
              setValues({ ...shown, [name]: e.target.value });
            }}
            multiline={name !== 'reason'}
            minRows={name === 'reason' ? undefined : 2}
            error={Boolean(errors[name])}
            helperText={errors[name] ?? (name === 'reason' ? t('note.reasonHint') : undefined)}
            slotProps={{ htmlInput: { maxLength: LIMITS[name] } }}
            fullWidth
          />
        ))}
      </Stack>
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure}
        </Alert>
      )}
      {saved && (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {t('note.saved', { patient: visit.patient_name })}
        </Alert>
      )}
      <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={save.isPending}>
        {note.data ? t('note.update') : t('note.save')}
      </Button>
    </Box>
  );
}
