import { useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { REASON_FOR_VISIT_MAX, specialityIn } from '@healthbook/shared/appointments';
import type { Provider, Slot } from '@healthbook/shared/contracts/appointments';
import { HubPage } from '../../../components/hub-page';
import { ApiError } from '../../../lib/api-client';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths, type TelehealthQuery } from '../../../lib/paths';
import { dayOf, userTimeZone, zonedFormat } from '../../../lib/zoned-time';
import { useAvailability } from '../api/get-availability';
import { useBookAppointment } from '../api/book-appointment';
import { useProvider } from '../api/get-provider';
import { useTelehealthQuery } from '../telehealth-query';
import { SummaryList } from './summary-list';
import { useRecordAccess } from '../../../lib/record-access';
import { ReadOnlyNotice } from '../../../components/read-only-notice';

/** /confirm-appointment — the chosen slot (slot of selectedProviderDetailsId on selectedDate), a reason for the visit, Confirm. */
export default function ConfirmAppointmentPage() {
  const { clientId } = useOrganizationContext();
  const { t } = useTranslation('telehealth');
  const query = useTelehealthQuery();
  const tz = userTimeZone();
  const providerId = query.selectedProviderDetailsId ?? 0;
  const day = query.selectedDate ?? '';
  const provider = useProvider(providerId);
  const availability = useAvailability({ providerId, start: day, end: day, tz }, Boolean(providerId && day && query.slot));
  const back = { to: paths.providerDetails(clientId, { ...query, slot: undefined }), label: t('confirm.back') };
  const slot = availability.data?.slots.find((s) => s.availability_det_id === query.slot) ?? null;
  // A failure to book (the slot just taken) stays in view while the slots are read again.
  const [failure, setFailure] = useState<string | null>(null);
  const { writes, readOnly } = useRecordAccess();
  const canWrite = writes.appointments;

  let body;
  if (readOnly) {
    body = <ReadOnlyNotice chat />;
  } else if (!providerId || !day || !query.slot || provider.isError || availability.isError) {
    body = (
      <Alert severity="error" action={<Button component={RouterLink} to={back.to}>{back.label}</Button>}>
        {t('loadFailed')}
      </Alert>
    );
  } else if (!provider.data || !availability.data || (availability.isFetching && !slot)) {
    body = (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  } else if (!slot) {
    body = (
      <Alert severity="warning" action={<Button component={RouterLink} to={back.to}>{back.label}</Button>}>
        {failure ?? t('confirm.taken')} {t('confirm.takenHint')}
      </Alert>
    );
  } else {
    body = canWrite && <ConfirmForm provider={provider.data} slot={slot} query={query} tz={tz} onTaken={setFailure} />;
  }
  return (
    <HubPage pageTitle={t('confirm.pageTitle')} back={back} maxWidth={720}>
      {body}
    </HubPage>
  );
}

interface ConfirmFormProps {
  provider: Provider;
  slot: Slot;
  query: TelehealthQuery;
  tz: string;
  /** The slot was taken meanwhile: the server's words, shown once the slots are read again. */
  onTaken: (message: string) => void;
}

function ConfirmForm({ provider, slot, tz, onTaken }: ConfirmFormProps) {
  const { clientId } = useOrganizationContext();
  const { t, i18n } = useTranslation(['telehealth', 'validation']);
  const navigate = useNavigate();
  const book = useBookAppointment();
  const format = zonedFormat(i18n.resolvedLanguage ?? 'en', tz);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<{ reason_for_visit: string }>({ mode: 'onTouched', defaultValues: { reason_for_visit: '' } });
  const reason = useWatch({ control, name: 'reason_for_visit' });

  const onSubmit = handleSubmit(async ({ reason_for_visit }) => {
    setFailure(null);
    try {
      const appointment = await book.mutateAsync({ provider_id: provider.provider_id, availability_det_id: slot.availability_det_id, reason_for_visit: reason_for_visit.trim() });
      void navigate(paths.appointmentScheduled(clientId, appointment.availability_det_id), { state: { appointment } });
    } catch (error) {
      const message = applyServerErrors(error, { setError, fields: ['reason_for_visit'], fallback: t('confirm.failed') });
      if (error instanceof ApiError && error.status === 409) onTaken(message ?? t('confirm.taken'));
      else setFailure(message);
    }
  });

  const rows: Array<[string, string]> = [
    [t('confirm.provider'), [provider.provider_name, specialityIn(i18n.resolvedLanguage ?? 'en', provider.speciality, provider.speciality_el)].filter(Boolean).join(' · ')],
    [t('confirm.date'), format.day(dayOf(slot.start_time, tz))],
    [t('confirm.time'), t('confirm.timeValue', { start: format.time(slot.start_time), end: format.time(slot.end_time), tz })],
  ];

  return (
    <Paper component="form" noValidate onSubmit={onSubmit} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3 }}>
      <Typography variant="h2" sx={{ mb: 1.5 }}>
        {t('confirm.summary')}
      </Typography>
      <SummaryList rows={rows} />
      <TextField
        label={t('confirm.reason')}
        required
        fullWidth
        multiline
        minRows={3}
        error={Boolean(errors.reason_for_visit)}
        helperText={fieldErrorText(errors.reason_for_visit, t) ?? t('confirm.reasonHelp', { count: reason.length, max: REASON_FOR_VISIT_MAX })}
        slotProps={{ htmlInput: { maxLength: REASON_FOR_VISIT_MAX } }}
        {...register('reason_for_visit', { validate: (value) => (value.trim() ? true : 'validation:reasonRequired') })}
      />
      {failure && (
        <Alert severity="error" sx={{ mt: 2 }}>
          {failure}
        </Alert>
      )}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
        <Button type="submit" variant="contained" size="large" disabled={isSubmitting} sx={{ minWidth: 160 }}>
          {t('confirm.submit')}
        </Button>
      </Box>
    </Paper>
  );
}
