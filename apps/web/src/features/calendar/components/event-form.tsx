import { useId, useState, type FormEvent } from 'react';
import { Controller, useForm, useWatch, type FieldError, type Path, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { EVENT_DESCRIPTION_MAX, EVENT_TITLE_MAX, EVENT_TYPES, RECURRENCE_MAX_COUNT, RECURRENCE_MAX_INTERVAL, WEEKDAYS, colorOfType } from '@healthbook/shared/calendar';
import type { CalendarEvent } from '@healthbook/shared/contracts/calendar';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useSaveEvent } from '../api/save-event';
import { addDays } from '../calendar-time';
import { eventColors } from '../event-colors';
import { selectedToggle } from './toggle-style';
import { reminderLabel, typeLabel, weekdayNames } from '../event-text';
import { checkEvent, eventBody, REMINDER_CHOICES, type EventFormValues } from '../event-values';
import { REPEAT_CHOICES, weekdayOf } from '../recurrence-form';

/** The server's field names onto the form's. */
const SERVER_FIELDS: Record<string, Path<EventFormValues>> = {
  title: 'title',
  description: 'description',
  type: 'type',
  color: 'type',
  start_time: 'startDay',
  end_time: 'endDay',
  all_day: 'allDay',
  recurrence: 'repeat',
  reminder_minutes: 'reminder',
};

export interface EventFormOptions {
  initial: EventFormValues;
  /** Absent: a new event. */
  eventId?: number;
  tz: string;
  onSaved: (event: CalendarEvent) => void;
  /** The title takes the focus (a dialog that just opened). */
  autoFocus?: boolean;
}

/**
 * The event form (a new event in the calendar's dialog, an event edited on its page): the
 * fields, and the submit that checks them, builds the body (the RRULE with the shared helpers)
 * and saves. The caller lays out the form element and its buttons.
 */
export function useEventForm({ initial, eventId, tz, onSaved, autoFocus = false }: EventFormOptions) {
  const { t } = useTranslation(['calendar', 'validation']);
  const form = useForm<EventFormValues>({ defaultValues: initial, mode: 'onTouched' });
  const save = useSaveEvent();
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    const errors = checkEvent(values);
    const names = Object.keys(errors) as Array<keyof EventFormValues>;
    if (names.length) {
      names.forEach((name, i) => form.setError(name, { type: 'validate', message: errors[name] }, { shouldFocus: i === 0 }));
      return;
    }
    try {
      onSaved(await save.mutateAsync({ ...(eventId === undefined ? {} : { id: eventId }), body: eventBody(values, tz) }));
    } catch (error) {
      setFailure(applyServerErrors(error, { setError: form.setError, fields: SERVER_FIELDS, fallback: t('form.saveFailed') }));
    }
  });

  return {
    form,
    onSubmit: (event: FormEvent) => void submit(event),
    submitting: form.formState.isSubmitting || save.isPending,
    dirty: form.formState.isDirty,
    failure,
    fields: <EventFields form={form} failure={failure} tz={tz} autoFocus={autoFocus} />,
  };
}

type Form = UseFormReturn<EventFormValues>;

function EventFields({ form, failure, tz, autoFocus }: { form: Form; failure: string | null; tz: string; autoFocus: boolean }) {
  const { t, i18n } = useTranslation(['calendar', 'validation']);
  const theme = useTheme();
  const { register, control, setValue, getValues, clearErrors, formState } = form;
  const errors = formState.errors;
  const [allDay, repeat, end, interval] = useWatch({ control, name: ['allDay', 'repeat', 'end', 'interval'] });
  const err = (name: keyof EventFormValues) => fieldErrorText(errors[name] as FieldError | undefined, (k) => t(k));
  const daysLabelId = useId();
  const endsLabelId = useId();
  const shortDays = weekdayNames(i18n.resolvedLanguage, 'short');
  const longDays = weekdayNames(i18n.resolvedLanguage, 'long');
  const unitCount = /^[0-9]+$/.test(interval) ? Number(interval) : 2;
  const dateSlot = { inputLabel: { shrink: true } };

  /** A new start day keeps the event's length, and a weekly repeat on the old weekday follows it. */
  const startDayChanged = (next: string, previous: string) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(next) || !/^\d{4}-\d{2}-\d{2}$/.test(previous)) return;
    const endDay = getValues('endDay');
    if (/^\d{4}-\d{2}-\d{2}$/.test(endDay)) {
      const length = Math.round((Date.parse(endDay) - Date.parse(previous)) / 86_400_000);
      setValue('endDay', addDays(next, Math.max(0, length)), { shouldDirty: true });
    }
    const byDay = getValues('byDay');
    if (byDay.length === 1 && byDay[0] === weekdayOf(previous)) setValue('byDay', [weekdayOf(next)], { shouldDirty: true });
  };

  return (
    <Stack spacing={2.5} sx={{ pt: 1 }}>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <TextField
        label={t('form.title')}
        required
        fullWidth
        autoFocus={autoFocus}
        autoComplete="off"
        error={Boolean(errors.title)}
        helperText={err('title')}
        slotProps={{ htmlInput: { maxLength: EVENT_TITLE_MAX } }}
        {...register('title')}
      />
      <Controller
        control={control}
        name="type"
        render={({ field }) => (
          <TextField select label={t('form.type')} fullWidth value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} inputRef={field.ref} error={Boolean(errors.type)} helperText={err('type')}>
            {EVENT_TYPES.map(({ type }) => (
              <MenuItem key={type} value={type}>
                <Box component="span" aria-hidden sx={{ display: 'inline-block', width: 12, height: 12, borderRadius: '50%', mr: 1.5, bgcolor: eventColors(colorOfType(type), theme.palette.mode).main }} />
                {typeLabel(t, type)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <Controller
        control={control}
        name="allDay"
        render={({ field }) => (
          <FormControlLabel
            control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} onBlur={field.onBlur} slotProps={{ input: { ref: field.ref } }} />}
            label={t('form.allDay')}
          />
        )}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Controller
          control={control}
          name="startDay"
          render={({ field }) => (
            <TextField
              type="date"
              label={t('form.startDate')}
              required
              fullWidth
              value={field.value}
              onChange={(e) => {
                startDayChanged(e.target.value, field.value);
                field.onChange(e.target.value);
              }}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={Boolean(errors.startDay)}
              helperText={err('startDay')}
              slotProps={dateSlot}
            />
          )}
        />
        {!allDay && (
          <TextField type="time" label={t('form.startTime')} required fullWidth error={Boolean(errors.startTime)} helperText={err('startTime')} slotProps={dateSlot} {...register('startTime')} />
        )}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField type="date" label={t('form.endDate')} required fullWidth error={Boolean(errors.endDay)} helperText={err('endDay')} slotProps={dateSlot} {...register('endDay', { onChange: () => clearErrors(['endTime', 'endDay']) })} />
        {!allDay && (
          <TextField type="time" label={t('form.endTime')} required fullWidth error={Boolean(errors.endTime)} helperText={err('endTime')} slotProps={dateSlot} {...register('endTime', { onChange: () => clearErrors(['endTime', 'endDay']) })} />
        )}
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mt: '8px !important' }}>
        {t('form.timeZone', { tz })}
      </Typography>

      <Controller
        control={control}
        name="repeat"
        render={({ field }) => (
          <TextField select label={t('form.repeat')} fullWidth value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} inputRef={field.ref} error={Boolean(errors.repeat)} helperText={err('repeat')}>
            {REPEAT_CHOICES.map((r) => (
              <MenuItem key={r} value={r}>
                {t(`form.repeats.${r}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      {repeat !== 'none' && (
        <Stack spacing={2.5} sx={{ pl: { sm: 2 }, borderLeft: { sm: 3 }, borderColor: { sm: 'divider' } }}>
          <TextField
            label={t('form.every')}
            required
            type="number"
            sx={{ maxWidth: 260 }}
            error={Boolean(errors.interval)}
            helperText={err('interval')}
            slotProps={{
              htmlInput: { min: 1, max: RECURRENCE_MAX_INTERVAL, inputMode: 'numeric' },
              input: { endAdornment: <Typography color="text.secondary" sx={{ ml: 1, whiteSpace: 'nowrap' }}>{t(`form.units.${repeat}`, { count: unitCount })}</Typography> },
            }}
            {...register('interval')}
          />
          {repeat === 'WEEKLY' && (
            <Controller
              control={control}
              name="byDay"
              render={({ field }) => (
                <FormControl error={Boolean(errors.byDay)}>
                  <FormLabel id={daysLabelId} sx={{ mb: 1 }}>
                    {t('form.onDays')}
                  </FormLabel>
                  <ToggleButtonGroup
                    value={field.value}
                    onChange={(_e, next: typeof field.value) => field.onChange(WEEKDAYS.filter((d) => next.includes(d)))}
                    aria-labelledby={daysLabelId}
                    size="small"
                    color="primary"
                    sx={{ flexWrap: 'wrap', ...selectedToggle }}
                  >
                    {WEEKDAYS.map((d) => (
                      <ToggleButton key={d} value={d} aria-label={longDays[d]} sx={{ minWidth: 44, px: 1 }}>
                        {shortDays[d]}
                      </ToggleButton>
                    ))}
                  </ToggleButtonGroup>
                  {errors.byDay && <FormHelperText role="alert">{err('byDay')}</FormHelperText>}
                </FormControl>
              )}
            />
          )}
          <Controller
            control={control}
            name="end"
            render={({ field }) => (
              <FormControl component="fieldset">
                <FormLabel component="legend" id={endsLabelId}>
                  {t('form.ends')}
                </FormLabel>
                <RadioGroup aria-labelledby={endsLabelId} value={field.value} onChange={(e) => field.onChange(e.target.value)}>
                  <FormControlLabel value="never" control={<Radio />} label={t('form.endsNever')} />
                  <FormControlLabel value="until" control={<Radio />} label={t('form.endsOn')} />
                  <FormControlLabel value="count" control={<Radio />} label={t('form.endsAfter')} />
                </RadioGroup>
              </FormControl>
            )}
          />
          {end === 'until' && (
            <TextField type="date" label={t('form.untilDate')} required sx={{ maxWidth: 260 }} error={Boolean(errors.until)} helperText={err('until')} slotProps={dateSlot} {...register('until')} />
          )}
          {end === 'count' && (
            <TextField
              type="number"
              label={t('form.count')}
              required
              sx={{ maxWidth: 260 }}
              error={Boolean(errors.count)}
              helperText={err('count')}
              slotProps={{ htmlInput: { min: 1, max: RECURRENCE_MAX_COUNT, inputMode: 'numeric' } }}
              {...register('count')}
            />
          )}
        </Stack>
      )}

      <Controller
        control={control}
        name="reminder"
        render={({ field }) => (
          <TextField
            select
            label={t('form.reminder')}
            fullWidth
            value={field.value}
            onChange={(e) => field.onChange(e.target.value)}
            onBlur={field.onBlur}
            inputRef={field.ref}
            error={Boolean(errors.reminder)}
            helperText={err('reminder')}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{reminderLabel(t, null)}</MenuItem>
            {REMINDER_CHOICES.map((m) => (
              <MenuItem key={m} value={String(m)}>
                {reminderLabel(t, m)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <TextField
        label={t('form.description')}
        multiline
        minRows={3}
        fullWidth
        error={Boolean(errors.description)}
        helperText={err('description')}
        slotProps={{ htmlInput: { maxLength: EVENT_DESCRIPTION_MAX } }}
        {...register('description')}
      />
    </Stack>
  );
}
