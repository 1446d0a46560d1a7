import { useId, useState } from 'react';
import { Controller, useFieldArray, useForm, type FieldError, type FieldErrors, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { ISO_WEEKDAYS, SLOT_MINUTES } from '@healthbook/shared/appointments';
import type { ProviderSchedule } from '@healthbook/shared/contracts/appointments';
import { useUnsavedChangesGuard } from '../../../components/dialogs/unsaved-changes';
import { HubPage } from '../../../components/hub-page';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { timeZones, todayIn, userTimeZone } from '../../../lib/zoned-time';
import { useSchedule } from '../api/get-schedule';
import { useSaveSchedule } from '../api/save-schedule';
import { checkSchedule, formOf, nextRange, payloadOf, type ScheduleForm } from '../schedule-rules';

/** The editor's rules (schedule-rules.ts) as react-hook-form errors, each under its field, as a key of provider:availability.errors. */
const scheduleResolver: Resolver<ScheduleForm> = (values) => {
  const problems = checkSchedule(values);
  if (problems.length === 0) return { values, errors: {} };
  const errors: Record<string, unknown> = {};
  for (const { path, problem } of problems) {
    const keys = path.split('.');
    let node = errors as Record<string, unknown>;
    keys.slice(0, -1).forEach((key, i) => {
      node[key] ??= /^\d+$/.test(keys[i + 1]!) ? [] : {};
      node = node[key] as Record<string, unknown>;
    });
    node[keys.at(-1)!] = { type: 'validate', message: `provider:availability.errors.${problem}` };
  }
  return { values: {}, errors: errors as FieldErrors<ScheduleForm> };
};

/** A time field: 150 px, or sharing a phone's width with its pair. */
const TIME_FIELD = { width: { xs: 'auto', sm: 150 }, flex: { xs: 1, sm: 'none' }, minWidth: 0 } as const;

/** The name of an ISO weekday (1 Monday … 7 Sunday) in a language: 1 January 2024 was a Monday. */
const weekdayName = (locale: string, weekday: number) => new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, weekday));

/** /provider/availability — weekly hours (several ranges a day), exceptions by date, slot length and time zone; Save publishes the slots. */
export default function AvailabilityPage() {
  const { t } = useTranslation('provider');
  const schedule = useSchedule();
  return (
    <HubPage pageTitle={t('availability.pageTitle')} intro={t('availability.intro')} maxWidth={960}>
      {schedule.isError ? (
        <Alert severity="error" action={<Button onClick={() => void schedule.refetch()}>{t('retry')}</Button>}>
          {t('loadFailed')}
        </Alert>
      ) : schedule.data ? (
        <AvailabilityForm schedule={schedule.data} />
      ) : (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      )}
    </HubPage>
  );
}

/** A text field of the form, registered with react-hook-form (MUI's TextField takes the input's ref as inputRef). */
const registered = ({ ref, ...rest }: UseFormRegisterReturn) => ({ ...rest, inputRef: ref });

function AvailabilityForm({ schedule }: { schedule: ProviderSchedule }) {
  const { t, i18n } = useTranslation(['provider', 'validation']);
  const locale = i18n.resolvedLanguage ?? 'en';
  const save = useSaveSchedule();
  const [published, setPublished] = useState<ProviderSchedule | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const zones = timeZones();
  const today = todayIn(userTimeZone());
  const ids = useId();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    getValues,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ScheduleForm>({ defaultValues: formOf(schedule, userTimeZone()), resolver: scheduleResolver, reValidateMode: 'onChange' });
  const weekly = useFieldArray({ control, name: 'weekly' });
  const exceptions = useFieldArray({ control, name: 'exceptions' });
  const leaveGuard = useUnsavedChangesGuard(isDirty && !isSubmitting);
  const error = (e: FieldError | undefined) => fieldErrorText(e, t);

  const onSubmit = handleSubmit(async (values) => {
    setPublished(null);
    setFailure(null);
    try {
      const answer = await save.mutateAsync(payloadOf(values));
      reset(formOf(answer, userTimeZone()));
      setPublished(answer);
    } catch (e) {
      setFailure(applyServerErrors(e, { setError, fields: ['slot_minutes', 'timezone'], fallback: t('availability.saveFailed') }));
    }
  });

  const shown = published ?? schedule;
  return (
    <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'grid', gap: 3 }}>
      <Paper component="section" aria-labelledby={`${ids}-publishing`} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" id={`${ids}-publishing`} sx={{ mb: 0.5 }}>
          {t('availability.publishing')}
        </Typography>
        <Typography role="status" color="text.secondary" sx={{ mb: 2 }}>
          {t('availability.openSlots', { count: shown.open_slots, days: shown.horizon_days })}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Controller
            control={control}
            name="slot_minutes"
            render={({ field }) => (
              <TextField
                select
                label={t('availability.slotLength')}
                value={field.value}
                onChange={(e) => field.onChange(Number(e.target.value))}
                onBlur={field.onBlur}
                name={field.name}
                inputRef={field.ref}
                error={Boolean(errors.slot_minutes)}
                helperText={error(errors.slot_minutes)}
                sx={{ minWidth: 180 }}
              >
                {SLOT_MINUTES.map((m) => (
                  <MenuItem key={m} value={m}>
                    {t('availability.minutes', { count: m })}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <Controller
            control={control}
            name="timezone"
            render={({ field }) => (
              <Autocomplete
                options={zones}
                value={field.value}
                disableClearable
                onChange={(_e, value) => field.onChange(value)}
                onBlur={field.onBlur}
                sx={{ flex: 1, maxWidth: { sm: 360 } }}
                renderInput={(params) => (
                  <TextField {...params} label={t('availability.timeZone')} name={field.name} inputRef={field.ref} error={Boolean(errors.timezone)} helperText={error(errors.timezone) ?? t('availability.timeZoneHelp')} />
                )}
              />
            )}
          />
        </Stack>
      </Paper>

      <Paper component="section" aria-labelledby={`${ids}-weekly`} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" id={`${ids}-weekly`} sx={{ mb: 0.5 }}>
          {t('availability.weekly')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('availability.weeklyHelp')}
        </Typography>
        <Box sx={{ display: 'grid' }}>
          {ISO_WEEKDAYS.map((weekday) => {
            const day = weekdayName(locale, weekday);
            const ranges = weekly.fields.map((field, index) => ({ field, index })).filter(({ field }) => field.weekday === weekday);
            const dayId = `${ids}-day-${weekday}`;
            return (
              <Box
                key={weekday}
                role="group"
                aria-labelledby={dayId}
                sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '140px 1fr' }, gap: { xs: 1, sm: 2 }, py: 2, borderTop: 1, borderColor: 'divider' }}
              >
                <Typography id={dayId} sx={{ fontWeight: 600, pt: { sm: 1 }, textTransform: 'capitalize' }}>
                  {day}
                </Typography>
                <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start', minWidth: 0 }}>
                  {ranges.length === 0 && (
                    <Typography color="text.secondary" sx={{ pt: { sm: 1 } }}>
                      {t('availability.unavailable')}
                    </Typography>
                  )}
                  {ranges.map(({ field, index }) => (
                    <Stack key={field.id} direction="row" spacing={1} sx={{ alignItems: 'flex-start', width: { xs: '100%', sm: 'auto' } }}>
                      <TextField
                        type="time"
                        size="small"
                        label={t('availability.from')}
                        error={Boolean(errors.weekly?.[index]?.start)}
                        helperText={error(errors.weekly?.[index]?.start)}
                        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
                        sx={TIME_FIELD}
                        {...registered(register(`weekly.${index}.start`))}
                      />
                      <TextField
                        type="time"
                        size="small"
                        label={t('availability.to')}
                        error={Boolean(errors.weekly?.[index]?.end)}
                        helperText={error(errors.weekly?.[index]?.end)}
                        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
                        sx={TIME_FIELD}
                        {...registered(register(`weekly.${index}.end`))}
                      />
                      <IconButton aria-label={t('availability.removeRange', { day })} onClick={() => weekly.remove(index)}>
                        <DeleteOutline />
                      </IconButton>
                    </Stack>
                  ))}
                  <Button size="small" startIcon={<Add />} aria-label={t('availability.addRangeOn', { day })} onClick={() => weekly.append(nextRange(getValues(), weekday))}>
                    {t('availability.addRange')}
                  </Button>
                </Box>
              </Box>
            );
          })}
        </Box>
      </Paper>

      <Paper component="section" aria-labelledby={`${ids}-exceptions`} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
        <Typography variant="h2" id={`${ids}-exceptions`} sx={{ mb: 0.5 }}>
          {t('availability.exceptions')}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('availability.exceptionsHelp')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
          {exceptions.fields.map((field, index) => (
            <Controller
              key={field.id}
              control={control}
              name={`exceptions.${index}.dayOff`}
              render={({ field: dayOff }) => (
                <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'flex-start', flexWrap: 'wrap' }} role="group" aria-label={t('availability.exceptionN', { n: index + 1 })}>
                  <TextField
                    type="date"
                    size="small"
                    label={t('availability.date')}
                    error={Boolean(errors.exceptions?.[index]?.date)}
                    helperText={error(errors.exceptions?.[index]?.date)}
                    slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today } }}
                    sx={{ width: 170 }}
                    {...registered(register(`exceptions.${index}.date`))}
                  />
                  <FormControlLabel
                    control={<Switch checked={dayOff.value} onChange={(e) => dayOff.onChange(e.target.checked)} slotProps={{ input: { ref: dayOff.ref } }} />}
                    label={t('availability.dayOff')}
                    sx={{ mx: 0, minHeight: 40 }}
                  />
                  {!dayOff.value && (
                    <>
                      <TextField
                        type="time"
                        size="small"
                        label={t('availability.from')}
                        error={Boolean(errors.exceptions?.[index]?.start)}
                        helperText={error(errors.exceptions?.[index]?.start)}
                        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
                        sx={TIME_FIELD}
                        {...registered(register(`exceptions.${index}.start`))}
                      />
                      <TextField
                        type="time"
                        size="small"
                        label={t('availability.to')}
                        error={Boolean(errors.exceptions?.[index]?.end)}
                        helperText={error(errors.exceptions?.[index]?.end)}
                        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 300 } }}
                        sx={TIME_FIELD}
                        {...registered(register(`exceptions.${index}.end`))}
                      />
                    </>
                  )}
                  <IconButton aria-label={t('availability.removeException', { n: index + 1 })} onClick={() => exceptions.remove(index)}>
                    <DeleteOutline />
                  </IconButton>
                </Stack>
              )}
            />
          ))}
          <Button size="small" startIcon={<Add />} onClick={() => exceptions.append({ date: '', dayOff: true, start: '09:00', end: '13:00' })}>
            {t('availability.addException')}
          </Button>
        </Box>
      </Paper>

      {failure && <Alert severity="error">{failure}</Alert>}
      {published && (
        <Alert severity="success">{t('availability.published', { count: published.open_slots, days: published.horizon_days })}</Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting}>
          {t('availability.save')}
        </Button>
      </Box>
      {leaveGuard}
    </Box>
  );
}
