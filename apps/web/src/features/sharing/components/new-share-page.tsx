import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type FieldError, type UseFormReturn } from 'react-hook-form';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueries } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import type { CreatedShare } from '@healthbook/shared/contracts/sharing';
import { SHARE_EXPIRIES, SHARE_MESSAGE_MAX, SHARE_METHODS, SHARE_NAME_MAX, type ShareKind } from '@healthbook/shared/sharing';
import { HubPage } from '../../../components/hub-page';
import { PickersProvider } from '../../../components/pickers-provider';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useHubFeatures } from '../../../lib/hub-features';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { recordTitle } from '../../../lib/record-text';
import { categoryRecordsQueryOptions } from '../api/list-category-records';
import { useCreateShare } from '../api/create-share';
import { useDocuments, usePrivateRecordIds } from '../api/list-documents';
import { checkCustomExpiry, checkShare, expiryInstant, initialShareValues, latestExpiry, parsePreselection, shareBody, SHARE_SERVER_FIELDS, type ChosenRecord, type SharePreselection, type ShareFormValues } from '../share-form';
import { dateTimeFormat, SHARING_NAMESPACES } from '../share-text';
import { useNow } from '../../../lib/use-now';
import { ShareResult } from './share-result';
import { DocumentsFields, RecordsFields } from './what-fields';

/**
 * /sharing/new — a new share: what (whole categories, single records or documents; never a
 * private record), to whom, how (a link e-mailed, or a QR code with a passcode) and until when;
 * then what the patient is shown once: that the link went out, or the QR code and its passcode.
 * Other pages link here with something chosen (?category=lab, ?record=12&category=lab, ?document=5).
 */
export default function NewSharePage() {
  const { t } = useTranslation(SHARING_NAMESPACES);
  const { clientId } = useOrganizationContext();
  const [params] = useSearchParams();
  const [preselection] = useState(() => parsePreselection(params));
  const [created, setCreated] = useState<CreatedShare | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Focusing the result brings it into view, and screen readers read it.
    if (created) resultRef.current?.focus();
  }, [created]);

  return (
    <HubPage
      pageTitle={created ? t('result.pageTitle') : t('form.pageTitle')}
      intro={created ? undefined : t('form.intro')}
      back={{ to: paths.sharing(clientId), label: t('backToShares') }}
      maxWidth={960}
    >
      {created ? (
        <Box ref={resultRef} tabIndex={-1} sx={{ outline: 'none' }}>
          <ShareResult share={created} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mt: 3 }}>
            <Button component={RouterLink} to={paths.share(clientId, created.id)} variant="contained">
              {t('result.openShare')}
            </Button>
            <Button component={RouterLink} to={paths.sharing(clientId)} variant="outlined">
              {t('result.allShares')}
            </Button>
          </Stack>
        </Box>
      ) : (
        <ShareForm preselection={preselection} onCreated={setCreated} />
      )}
    </HubPage>
  );
}

const WHAT_ERROR_ID = 'share-what-error';
/** "Choose what to share" takes the focus once shown. */
const focusWhatError = () => requestAnimationFrame(() => document.getElementById(WHAT_ERROR_ID)?.focus());

/** A part of the form: its heading and what it asks. */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 } }}>
      <Typography id={id} variant="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Titles and private flags of the records chosen, from their categories' lists (shared with the picker, so mostly cached). */
function useChosenRecords(records: readonly ChosenRecord[], locale: string, t: Parameters<typeof recordTitle>[0]) {
  const categories = [...new Set(records.map((r) => r.category))];
  return useQueries({
    queries: categories.map((c) => categoryRecordsQueryOptions(c)),
    combine: (results) => {
      const titles = new Map<number, string>();
      const privateIds = new Set<number>();
      for (const result of results)
        for (const record of result.data?.results ?? []) {
          titles.set(record.id, recordTitle(t, locale, record));
          if (record.private) privateIds.add(record.id);
        }
      return { titles, privateIds };
    },
  });
}

function ShareForm({ preselection, onCreated }: { preselection: SharePreselection; onCreated: (share: CreatedShare) => void }) {
  const { t, i18n } = useTranslation(SHARING_NAMESPACES);
  const locale = i18n.resolvedLanguage ?? 'en';
  const { clientId, org } = useOrganizationContext();
  const offerInsurance = useHubFeatures(org.org, locale).status('insurance') === 'active';
  const form = useForm<ShareFormValues>({ defaultValues: initialShareValues(preselection, locale === 'el' ? 'el' : 'en') });
  const { control, register, formState, handleSubmit, setError, clearErrors } = form;
  const create = useCreateShare();
  const [failure, setFailure] = useState<string | null>(null);
  const [pickCategory, setPickCategory] = useState(preselection.pickCategory ?? '');
  const [kind, records, method] = useWatch({ control, name: ['kind', 'records', 'method'] });

  const chosenRecords = useChosenRecords(records, locale, t);
  const documents = useDocuments(kind === 'documents');
  const attachedTo = [...new Map((documents.data ?? []).flatMap((d) => (d.record ? [[d.record.id, d.record] as const] : []))).values()];
  const privateRecords = usePrivateRecordIds(kind === 'documents' ? attachedTo : []);
  const ofPrivateRecords = new Set((documents.data ?? []).filter((d) => d.record && privateRecords.privateIds.has(d.record.id)).map((d) => d.id));
  // Until every record documents are attached to has answered, their documents wait.
  const blocked = privateRecords.settled ? ofPrivateRecords : new Set((documents.data ?? []).filter((d) => d.record).map((d) => d.id));
  const privateChosen = records.filter((r) => chosenRecords.privateIds.has(r.id));

  const err = (name: keyof ShareFormValues) => fieldErrorText(formState.errors[name] as FieldError | undefined, (k) => t(k));
  const whatErrorText = err(kind === 'records' ? 'categories' : 'documents');

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const effective = { ...values, documents: values.documents.filter((id) => !blocked.has(id)) };
    const now = new Date();
    const errors = checkShare(effective, now, chosenRecords.privateIds);
    const names = Object.keys(errors) as Array<keyof ShareFormValues>;
    if (names.length) {
      // Nothing chosen: the message at the top of "What to share" takes the focus; else the first field.
      const nothingChosen = Boolean(errors.categories ?? errors.documents);
      names.forEach((name, i) => setError(name, { type: 'validate', message: errors[name] }, { shouldFocus: !nothingChosen && i === 0 }));
      if (nothingChosen) focusWhatError();
      return;
    }
    try {
      onCreated(await create.mutateAsync(shareBody(effective, chosenRecords.privateIds)));
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: SHARE_SERVER_FIELDS, fallback: t('form.failed') }));
      if (form.getFieldState('categories').error || form.getFieldState('documents').error) focusWhatError();
    }
  });

  const changeKind = (next: ShareKind) => {
    form.setValue('kind', next, { shouldDirty: true });
    clearErrors(['categories', 'documents']);
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => void submit(e)} aria-label={t('form.pageTitle')}>
      <Stack spacing={3}>
        {failure && (
          <Alert severity="error" role="alert">
            {failure}
          </Alert>
        )}

        <Section id="share-what" title={t('form.whatTitle')}>
          <FormControl sx={{ mb: 2 }}>
            <FormLabel id="share-kind" sx={{ mb: 0.5 }}>
              {t('form.kindLabel')}
            </FormLabel>
            <RadioGroup row aria-labelledby="share-kind" value={kind} onChange={(e) => changeKind(e.target.value as ShareKind)}>
              <FormControlLabel value="records" control={<Radio />} label={t('form.kindRecords')} />
              <FormControlLabel value="documents" control={<Radio />} label={t('form.kindDocuments')} />
            </RadioGroup>
          </FormControl>
          {whatErrorText && (
            <Alert id={WHAT_ERROR_ID} tabIndex={-1} severity="error" role="alert" sx={{ mb: 2 }}>
              {whatErrorText}
            </Alert>
          )}
          <Alert severity="info" icon={false} sx={{ mb: 2 }}>
            {t('form.privateNever')}
          </Alert>
          {kind === 'records' ? (
            <RecordsFields form={form} pickCategory={pickCategory} onPickCategory={setPickCategory} titles={chosenRecords.titles} privateChosen={privateChosen} offerInsurance={offerInsurance} />
          ) : (
            <DocumentsFields form={form} documents={documents.data} loading={documents.isPending} failed={documents.isError} blocked={blocked} ofPrivateRecords={ofPrivateRecords} />
          )}
        </Section>

        <Section id="share-method" title={t('form.methodTitle')}>
          <Controller
            control={control}
            name="method"
            render={({ field }) => (
              <RadioGroup aria-labelledby="share-method" value={field.value} onChange={(e) => field.onChange(e.target.value)} name={field.name}>
                {SHARE_METHODS.map((choice) => (
                  <FormControlLabel
                    key={choice}
                    value={choice}
                    control={<Radio slotProps={{ input: { ref: choice === 'link' ? field.ref : undefined } }} />}
                    sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { pt: 0.75 } }}
                    label={
                      <Box sx={{ py: 0.5 }}>
                        <Typography component="span" sx={{ display: 'block', fontWeight: 600 }}>
                          {t(`method.${choice}`)}
                        </Typography>
                        <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
                          {t(`form.methodHint.${choice}`)}
                        </Typography>
                      </Box>
                    }
                  />
                ))}
              </RadioGroup>
            )}
          />
          {formState.errors.method && <FormHelperText error>{err('method')}</FormHelperText>}
        </Section>

        <Section id="share-recipient" title={t('form.recipientTitle')}>
          <Stack spacing={2}>
            <TextField
              label={t('form.recipientName')}
              required
              fullWidth
              autoComplete="off"
              error={Boolean(formState.errors.recipientName)}
              helperText={err('recipientName')}
              slotProps={{ htmlInput: { maxLength: SHARE_NAME_MAX } }}
              {...register('recipientName')}
            />
            <TextField
              label={t('form.recipientEmail')}
              type="email"
              required
              fullWidth
              autoComplete="off"
              error={Boolean(formState.errors.recipientEmail)}
              helperText={err('recipientEmail') ?? t('form.recipientEmailHint')}
              slotProps={{ htmlInput: { maxLength: 254, inputMode: 'email', spellCheck: false } }}
              {...register('recipientEmail')}
            />
            {method === 'link' && (
              <>
                <Controller
                  control={control}
                  name="language"
                  render={({ field }) => (
                    <TextField
                      select
                      label={t('form.language')}
                      value={field.value}
                      onChange={(e) => field.onChange(e.target.value)}
                      onBlur={field.onBlur}
                      inputRef={field.ref}
                      helperText={err('language') ?? t('form.languageHint')}
                      error={Boolean(formState.errors.language)}
                      sx={{ maxWidth: { sm: 320 } }}
                    >
                      <MenuItem value="en" lang="en">
                        English
                      </MenuItem>
                      <MenuItem value="el" lang="el">
                        Ελληνικά
                      </MenuItem>
                    </TextField>
                  )}
                />
                <TextField
                  label={t('form.message')}
                  fullWidth
                  multiline
                  minRows={3}
                  error={Boolean(formState.errors.message)}
                  helperText={err('message') ?? t('form.messageHint', { max: SHARE_MESSAGE_MAX })}
                  slotProps={{ htmlInput: { maxLength: SHARE_MESSAGE_MAX } }}
                  {...register('message')}
                />
              </>
            )}
          </Stack>
        </Section>

        <Section id="share-expiry" title={t('form.expiryTitle')}>
          <ExpiryFields form={form} />
        </Section>

        <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
          <Button component={RouterLink} to={paths.sharing(clientId)} variant="outlined">
            {t('form.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={create.isPending || formState.isSubmitting}>
            {create.isPending ? t('form.sharing') : t('form.submit')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

/** 1 hour, 1 day, 7 days, 30 days, or a date and time of the patient's choosing up to 90 days ahead; and when that is. */
function ExpiryFields({ form }: { form: UseFormReturn<ShareFormValues> }) {
  const { t, i18n } = useTranslation(SHARING_NAMESPACES);
  const { control, formState, clearErrors } = form;
  const [expiresIn, expiresAt] = useWatch({ control, name: ['expiresIn', 'expiresAt'] });
  const now = useNow();
  // A custom moment that cannot be (past, too far, half typed) says nothing here: its field says why.
  const at = expiresIn === 'custom' && checkCustomExpiry(expiresAt, now) ? null : expiryInstant({ expiresIn, expiresAt }, now);
  const error = fieldErrorText(formState.errors.expiresAt, (k) => t(k));
  const format = dateTimeFormat(i18n.resolvedLanguage ?? 'en');

  return (
    <Stack spacing={2}>
      <Controller
        control={control}
        name="expiresIn"
        render={({ field }) => (
          <RadioGroup
            aria-labelledby="share-expiry"
            value={field.value}
            name={field.name}
            onChange={(e) => {
              field.onChange(e.target.value);
              clearErrors('expiresAt');
            }}
            sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', sm: 'repeat(3, auto)', md: 'repeat(5, auto)' }, justifyContent: 'start', columnGap: 2 }}
          >
            {SHARE_EXPIRIES.map((expiry) => (
              <FormControlLabel
                key={expiry}
                value={expiry}
                control={<Radio slotProps={{ input: { ref: expiry === '1h' ? field.ref : undefined } }} />}
                label={t(`expiry.${expiry}`)}
                sx={expiry === 'custom' ? { gridColumn: { xs: '1 / -1', sm: 'auto' } } : undefined}
              />
            ))}
          </RadioGroup>
        )}
      />
      {expiresIn === 'custom' && (
        <Controller
          control={control}
          name="expiresAt"
          render={({ field }) => (
            <PickersProvider>
              <DateTimePicker
                label={t('form.expiresAt')}
                value={field.value && field.value !== 'invalid' ? dayjs(field.value) : null}
                onChange={(next: Dayjs | null) => field.onChange(next === null ? '' : next.isValid() ? next.toISOString() : 'invalid')}
                minDateTime={dayjs(now)}
                maxDateTime={dayjs(latestExpiry(now))}
                inputRef={field.ref}
                slotProps={{ textField: { required: true, fullWidth: true, error: Boolean(error), helperText: error ?? t('form.expiresAtHint'), onBlur: field.onBlur, sx: { maxWidth: { sm: 360 } } } }}
              />
            </PickersProvider>
          )}
        />
      )}
      <Typography role="status" color={at ? 'text.primary' : 'text.secondary'}>
        {at ? t(expiresIn === 'custom' ? 'form.expiresOn' : 'form.expiresAbout', { date: format.format(at) }) : ''}
      </Typography>
    </Stack>
  );
}
