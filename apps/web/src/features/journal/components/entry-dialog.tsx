import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { JournalEntry } from '@healthbook/shared/contracts/journal';
import { JOURNAL_LIMITS } from '@healthbook/shared/journal';
import { DateField } from '../../../components/date-field';
import { ApiError } from '../../../lib/api-client';
import { todayIn, userTimeZone } from '../../../lib/zoned-time';
import { useSaveJournalEntry } from '../api/save-journal-entry';
import { JOURNAL_MOODS, MOOD_FACES, parseTags } from '../moods';
import { useRecordAccess } from '../../../lib/record-access';

type Errors = Partial<Record<'entry_date' | 'title' | 'text' | 'mood' | 'tags' | 'private' | 'form', string>>;

/** The first message of each field of a 400 answer ("tags.3" counts as tags). */
function fieldErrors(data: unknown): Errors {
  const errors: Errors = {};
  if (!data || typeof data !== 'object') return errors;
  for (const [key, messages] of Object.entries(data as Record<string, unknown>)) {
    const field = key.split('.')[0] as keyof Errors;
    const message = Array.isArray(messages) ? String(messages[0]) : typeof messages === 'string' ? messages : '';
    if (message && !errors[field]) errors[field === ('detail' as keyof Errors) ? 'form' : field] = message;
  }
  return errors;
}

export interface EntryDialogProps {
  /** The entry to change, or null for a new one. */
  entry: JournalEntry | null;
  onClose: () => void;
  onSaved: (entry: JournalEntry, created: boolean) => void;
}

/** Writing or changing an entry: day, title, text, mood (five labelled choices), tags, and who may see it. */
export function EntryDialog({ entry, onClose, onSaved }: EntryDialogProps) {
  const { t } = useTranslation('journal');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const moodLabelId = useId();
  const today = todayIn(userTimeZone());
  const [date, setDate] = useState(entry?.entry_date ?? today);
  const [title, setTitle] = useState(entry?.title ?? '');
  const [text, setText] = useState(entry?.text ?? '');
  const [mood, setMood] = useState<number | null>(entry?.mood ?? null);
  const [tags, setTags] = useState<string[]>(entry?.tags ?? []);
  // What is typed in Tags and not yet a tag: it becomes one at a comma, at Enter, on leaving the field, or on saving.
  const [tagInput, setTagInput] = useState('');
  const addTags = (typed: string) => setTags((current) => parseTags([...current, typed].join(',')));
  // Someone in the care network writes for the patient: their entries are never private (they would not see them).
  const { canSeePrivate } = useRecordAccess();
  const [shared, setShared] = useState(entry ? !entry.private : !canSeePrivate);
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveJournalEntry();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local: Errors = {};
    if (!title.trim()) local.title = t('form.titleRequired');
    if (!date || date === 'invalid') local.entry_date = t('form.dateRequired');
    else if (date > today) local.entry_date = t('form.dateFuture');
    const tagList = parseTags([...tags, tagInput].join(','));
    if (tagList.length > JOURNAL_LIMITS.tags) local.tags = t('form.tooManyTags', { max: JOURNAL_LIMITS.tags });
    if (Object.keys(local).length) {
      setErrors(local);
      return;
    }
    setErrors({});
    save.mutate(
      { id: entry?.id ?? null, body: { entry_date: date, title: title.trim(), text, mood, tags: tagList, private: canSeePrivate && !shared } },
      {
        onSuccess: (saved) => onSaved(saved, entry === null),
        onError: (err) => setErrors(err instanceof ApiError && err.status === 400 ? fieldErrors(err.data) : { form: t('form.saveFailed') }),
      },
    );
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <Box component="form" noValidate onSubmit={submit} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}>
        <DialogTitle id={titleId}>{entry ? t('form.editTitle') : t('form.newTitle')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2.5, pt: '8px !important' }}>
          {errors.form && <Alert severity="error">{errors.form}</Alert>}
          <DateField label={t('form.date')} value={date} onChange={setDate} error={errors.entry_date} required max={today} name="entry_date" />
          <TextField
            label={t('form.title')}
            name="title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            error={Boolean(errors.title)}
            helperText={errors.title}
            slotProps={{ htmlInput: { maxLength: JOURNAL_LIMITS.title } }}
          />
          <TextField
            label={t('form.text')}
            name="text"
            value={text}
            onChange={(e) => setText(e.target.value)}
            multiline
            minRows={4}
            maxRows={14}
            error={Boolean(errors.text)}
            helperText={errors.text}
            slotProps={{ htmlInput: { maxLength: JOURNAL_LIMITS.text } }}
          />
          <FormControl error={Boolean(errors.mood)}>
            <FormLabel id={moodLabelId}>{t('form.mood')}</FormLabel>
            <RadioGroup aria-labelledby={moodLabelId} name="mood" row value={mood === null ? '' : String(mood)} onChange={(e) => setMood(Number(e.target.value))}>
              {JOURNAL_MOODS.map((m) => (
                <FormControlLabel
                  key={m}
                  value={String(m)}
                  control={<Radio />}
                  sx={{ mr: 2 }}
                  label={
                    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
                      <Box component="span" aria-hidden sx={{ fontSize: '1.4rem', lineHeight: 1 }}>
                        {MOOD_FACES[m]}
                      </Box>
                      {t(`moods.${m}`)}
                    </Box>
                  }
                />
              ))}
            </RadioGroup>
            {mood !== null && (
              <Button size="small" onClick={() => setMood(null)} sx={{ alignSelf: 'flex-start' }}>
                {t('form.clearMood')}
              </Button>
            )}
            {errors.mood && <FormHelperText>{errors.mood}</FormHelperText>}
          </FormControl>
          {/* Enter adds the typed tag (it does not save the entry), as does a comma. */}
          <Autocomplete
            multiple
            freeSolo
            autoSelect
            options={[] as string[]}
            value={tags}
            onChange={(_e, next) => {
              setTags(parseTags(next.join(',')));
              setTagInput('');
            }}
            inputValue={tagInput}
            onInputChange={(_e, typed, reason) => {
              if (reason === 'reset') return setTagInput('');
              const cut = typed.lastIndexOf(',');
              if (cut === -1) return setTagInput(typed);
              addTags(typed.slice(0, cut));
              setTagInput(typed.slice(cut + 1).trimStart());
            }}
            renderInput={(params) => (
              <TextField {...params} label={t('form.tags')} name="tags" error={Boolean(errors.tags)} helperText={errors.tags ?? t('form.tagsHelp')} />
            )}
          />
          {canSeePrivate && (
            <FormControl>
              <FormControlLabel control={<Switch checked={shared} onChange={(e) => setShared(e.target.checked)} name="shared" />} label={t('form.shared')} />
              <FormHelperText sx={{ mx: 0 }}>{shared ? t('form.sharedHelpOn') : t('form.sharedHelpOff')}</FormHelperText>
            </FormControl>
          )}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            {t('form.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
