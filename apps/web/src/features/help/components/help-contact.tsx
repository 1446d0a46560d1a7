import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import MailOutline from '@mui/icons-material/MailOutlined';
import Phone from '@mui/icons-material/Phone';
import { HELP_CONTACT_CATEGORIES, HELP_MESSAGE_MAX, HELP_SUBJECT_MAX, type HelpContactCategory } from '@healthbook/shared/help';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useSendContact } from '../api/send-contact';

interface ContactValues {
  subject: string;
  message: string;
  category: HelpContactCategory | '';
}

const EMPTY: ContactValues = { subject: '', message: '', category: '' };

/** The organisation's contact details and the form that writes to its support address. */
export function HelpContact() {
  const { org } = useOrganizationContext();
  const { t } = useTranslation('help');
  const headingId = useId();
  const send = useSendContact();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, control, handleSubmit, reset, setError, formState } = useForm<ContactValues>({ defaultValues: EMPTY });
  const messageLength = useWatch({ control, name: 'message' }).length;

  const onSubmit = handleSubmit(async (values) => {
    setSent(null);
    setFailure(null);
    try {
      const answer = await send.mutateAsync({ subject: values.subject, message: values.message, ...(values.category ? { category: values.category } : {}) });
      setSent(answer.detail);
      reset(EMPTY);
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: ['subject', 'message', 'category'], fallback: t('contact.failed') }));
    }
  });

  return (
    <Paper component="section" id="contact" aria-labelledby={headingId} variant="outlined" sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, mb: 4, scrollMarginTop: 96 }}>
      <Typography variant="h2" id={headingId} sx={{ mb: 1 }}>
        {t('contact.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('contact.intro', { orgName: org.org_name })}
      </Typography>
      {(org.support_email || org.support_phone) && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 3 }} sx={{ mb: 3 }}>
          {org.support_email && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <MailOutline color="primary" aria-hidden />
              <Typography>
                <Box component="span" sx={{ color: 'text.secondary' }}>{t('contact.email')}: </Box>
                <Link href={`mailto:${org.support_email}`}>{org.support_email}</Link>
              </Typography>
            </Stack>
          )}
          {org.support_phone && (
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Phone color="primary" aria-hidden />
              <Typography>
                <Box component="span" sx={{ color: 'text.secondary' }}>{t('contact.phone')}: </Box>
                <Link href={`tel:${org.support_phone.replace(/\s+/g, '')}`}>{org.support_phone}</Link>
              </Typography>
            </Stack>
          )}
        </Stack>
      )}
      {!org.support_email ? (
        <Alert severity="info">{t('contact.noAddress')}</Alert>
      ) : (
        <Box component="form" noValidate onSubmit={onSubmit} aria-labelledby={headingId}>
          <Typography variant="h3" sx={{ fontSize: '1.05rem', fontWeight: 600, mb: 1.5 }}>
            {t('contact.formTitle')}
          </Typography>
          <Stack spacing={2}>
            <Controller
              name="category"
              control={control}
              render={({ field, fieldState }) => (
                <TextField
                  select
                  label={t('contact.category')}
                  {...field}
                  error={Boolean(fieldState.error)}
                  helperText={fieldErrorText(fieldState.error, t)}
                  sx={{ maxWidth: { sm: 420 } }}
                >
                  <MenuItem value="">{t('contact.categoryNone')}</MenuItem>
                  {HELP_CONTACT_CATEGORIES.map((c) => (
                    <MenuItem key={c} value={c}>
                      {t(`contact.categories.${c}`)}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <TextField
              label={t('contact.subject')}
              required
              {...register('subject', {
                validate: (v) => (v.trim() ? true : 'contact.errors.subjectRequired'),
                maxLength: { value: HELP_SUBJECT_MAX, message: 'contact.errors.subjectTooLong' },
              })}
              error={Boolean(formState.errors.subject)}
              helperText={fieldErrorText(formState.errors.subject, t)}
              slotProps={{ htmlInput: { maxLength: HELP_SUBJECT_MAX } }}
            />
            <TextField
              label={t('contact.message')}
              required
              multiline
              minRows={5}
              {...register('message', {
                validate: (v) => (v.trim() ? true : 'contact.errors.messageRequired'),
                maxLength: { value: HELP_MESSAGE_MAX, message: 'contact.errors.messageTooLong' },
              })}
              error={Boolean(formState.errors.message)}
              helperText={fieldErrorText(formState.errors.message, t) ?? t('contact.messageHelp', { count: messageLength, max: HELP_MESSAGE_MAX })}
              slotProps={{ htmlInput: { maxLength: HELP_MESSAGE_MAX } }}
            />
            <Typography variant="body2" color="text.secondary">
              {t('contact.note', { number: org.emergency_number })}
            </Typography>
            <Box aria-live="polite">
              {sent && <Alert severity="success">{sent}</Alert>}
              {failure && <Alert severity="error">{failure}</Alert>}
            </Box>
            <Box>
              <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
                {formState.isSubmitting ? t('contact.sending') : t('contact.send')}
              </Button>
            </Box>
          </Stack>
        </Box>
      )}
    </Paper>
  );
}
