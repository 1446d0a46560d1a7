import { useId, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Alert from '@mui/material/Alert';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { EMERGENCY_COUNTRIES, EMERGENCY_PRESETS, type EmergencyCountry } from '@healthbook/shared/emergency';
import MenuItem from '@mui/material/MenuItem';
import { applyServerErrors } from '../../../lib/form-errors';
import { useUpdateOrganizationSettings } from '../api/update-organization-settings';

interface ContactsForm {
  emergency_number: string;
  support_email: string;
  support_phone: string;
  crisis_lines: Array<{ number: string; name_en: string; name_el: string }>;
}

const MAX_CRISIS_LINES = 5;

function formOf(organization: OrganizationDetail): ContactsForm {
  return {
    emergency_number: organization.emergency_number,
    support_email: organization.support_email ?? '',
    support_phone: organization.support_phone ?? '',
    crisis_lines: organization.crisis_lines.map((l) => ({ number: l.number, name_en: l.name.en, name_el: l.name.el })),
  };
}

/**
 * Administration → help and crisis contacts: the emergency number members call, the crisis lines
 * shown first whenever someone may be at risk (a survey's safety path, the symptom checker), and
 * the help area's support address (its contact form writes there) and phone.
 */
export function HelpContacts({ organization }: { organization: OrganizationDetail }) {
  const { t } = useTranslation('admin');
  const update = useUpdateOrganizationSettings();
  const headingId = useId();
  const [saved, setSaved] = useState(false);
  const [general, setGeneral] = useState<string | null>(null);
  const { register, control, handleSubmit, setError, reset, formState, setValue } = useForm<ContactsForm>({ defaultValues: formOf(organization) });
  const [country, setCountry] = useState<EmergencyCountry | ''>('');
  const lines = useFieldArray({ control, name: 'crisis_lines' });
  // A country's usual numbers, filled in to be checked and saved (nothing is saved until then).
  const fillIn = (chosen: EmergencyCountry) => {
    const preset = EMERGENCY_PRESETS[chosen];
    setValue('emergency_number', preset.emergency_number, { shouldDirty: true });
    lines.replace(preset.crisis_lines.map((l) => ({ number: l.number, name_en: l.name.en, name_el: l.name.el })));
  };

  const submit = handleSubmit(async (values) => {
    setSaved(false);
    setGeneral(null);
    try {
      const updated = await update.mutateAsync({
        organizationId: organization.org,
        settings: {
          emergency_number: values.emergency_number.trim(),
          support_email: values.support_email.trim() || null,
          support_phone: values.support_phone.trim() || null,
          crisis_lines: values.crisis_lines.map((l) => ({ number: l.number.trim(), name: { en: l.name_en.trim(), el: l.name_el.trim() } })),
        },
      });
      reset(formOf(updated));
      setSaved(true);
    } catch (failure) {
      // The server names crisis lines' fields as crisis_lines.<n>.number / .name.en: shown on the form's fields.
      const message = applyServerErrors<ContactsForm>(failure, {
        setError: (field, error) => setError(String(field).replace(/\.name\.(en|el)$/, '.name_$1') as keyof ContactsForm, error),
        fields: ['emergency_number', 'support_email', 'support_phone', 'crisis_lines', ...lines.fields.flatMap((_l, i) => [`crisis_lines.${i}.number`, `crisis_lines.${i}.name.en`, `crisis_lines.${i}.name.el`])] as Array<keyof ContactsForm>,
        fallback: t('contacts.saveFailed'),
      });
      setGeneral(message);
    }
  });

  const fieldError = (name: string) => {
    const parts = name.split('.');
    let node: unknown = formState.errors;
    for (const part of parts) node = (node as Record<string, unknown> | undefined)?.[part];
    return (node as { message?: string } | undefined)?.message;
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ borderRadius: 3, p: { xs: 2, sm: 3 }, mt: 4 }}>
      <Typography id={headingId} variant="h2" sx={{ mb: 0.5 }}>
        {t('contacts.title')}
      </Typography>
      <Typography color="text.secondary" variant="body2" sx={{ mb: 2 }}>
        {t('contacts.intro')}
      </Typography>
      <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
        {general && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {general}
          </Alert>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
          <TextField
            select
            label={t('contacts.country')}
            value={country}
            onChange={(e) => setCountry(e.target.value as EmergencyCountry)}
            helperText={t('contacts.countryHelp')}
            sx={{ minWidth: 220 }}
          >
            {EMERGENCY_COUNTRIES.map((code) => (
              <MenuItem key={code} value={code}>
                {t(`contacts.countries.${code}`)}
              </MenuItem>
            ))}
          </TextField>
          <Button variant="outlined" disabled={!country} onClick={() => country && fillIn(country)} sx={{ alignSelf: { sm: 'flex-start' }, mt: { sm: 1 } }}>
            {t('contacts.fillIn')}
          </Button>
        </Stack>
        <Stack spacing={2} sx={{ mb: 2 }}>
          <TextField label={t('contacts.emergencyNumber')} {...register('emergency_number')} error={Boolean(fieldError('emergency_number'))} helperText={fieldError('emergency_number') ?? t('contacts.emergencyHelp')} inputMode="tel" />
          <TextField label={t('contacts.supportEmail')} type="email" {...register('support_email')} error={Boolean(fieldError('support_email'))} helperText={fieldError('support_email') ?? t('contacts.supportEmailHelp')} />
          <TextField label={t('contacts.supportPhone')} {...register('support_phone')} error={Boolean(fieldError('support_phone'))} helperText={fieldError('support_phone')} inputMode="tel" />
        </Stack>
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t('contacts.crisisLines')}
        </Typography>
        <Typography color="text.secondary" variant="body2" sx={{ mb: 1.5 }}>
          {t('contacts.crisisHelp')}
        </Typography>
        <Stack spacing={2} sx={{ mb: 2 }}>
          {lines.fields.map((line, index) => (
            <Stack key={line.id} direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
              <TextField
                label={t('contacts.lineNumber')}
                {...register(`crisis_lines.${index}.number`)}
                error={Boolean(fieldError(`crisis_lines.${index}.number`))}
                helperText={fieldError(`crisis_lines.${index}.number`)}
                inputMode="tel"
                sx={{ minWidth: 120 }}
              />
              <TextField label={t('contacts.lineNameEn')} {...register(`crisis_lines.${index}.name_en`)} error={Boolean(fieldError(`crisis_lines.${index}.name_en`))} helperText={fieldError(`crisis_lines.${index}.name_en`)} fullWidth />
              <TextField label={t('contacts.lineNameEl')} {...register(`crisis_lines.${index}.name_el`)} error={Boolean(fieldError(`crisis_lines.${index}.name_el`))} helperText={fieldError(`crisis_lines.${index}.name_el`)} fullWidth />
              <IconButton aria-label={t('contacts.removeLine', { number: index + 1 })} onClick={() => lines.remove(index)} sx={{ alignSelf: { xs: 'flex-end', sm: 'center' } }}>
                <DeleteOutline />
              </IconButton>
            </Stack>
          ))}
          {lines.fields.length === 0 && <Typography variant="body2">{t('contacts.noLines')}</Typography>}
        </Stack>
        <Stack direction="row" spacing={1.5} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <Button variant="outlined" disabled={lines.fields.length >= MAX_CRISIS_LINES} onClick={() => lines.append({ number: '', name_en: '', name_el: '' })}>
            {t('contacts.addLine')}
          </Button>
          <Button type="submit" variant="contained" disabled={update.isPending}>
            {t('contacts.save')}
          </Button>
          {saved && (
            <Typography role="status" color="success.main">
              {t('contacts.saved')}
            </Typography>
          )}
        </Stack>
      </Box>
    </Paper>
  );
}
