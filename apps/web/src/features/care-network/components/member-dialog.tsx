import { useId, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { CareAccess, CareMember } from '@healthbook/shared/contracts/care-network';
import { validateEmailField } from '@healthbook/shared/validation';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useInviteCareMember, useUpdateCareMember } from '../api/care-members';
import { CARE_CATEGORIES, categoryLabel } from '../categories';

interface MemberForm {
  name: string;
  email: string;
  access: CareAccess;
  onlySome: boolean;
  categories: string[];
}

const FIELDS = ['name', 'email', 'access', 'categories'] as const;

const required = (message: string) => (value: string) => (value.trim() ? true : message);

export interface MemberDialogProps {
  /** null: invite someone; a member: change their access. */
  member: CareMember | null;
  orgName: string;
  onClose: () => void;
  /** After a successful save: the notice to show. */
  onDone: (notice: string) => void;
}

/**
 * "Invite someone" (name, e-mail, full or read-only, optionally only some categories) and
 * "Change access" (the same choices for someone already in the network).
 */
export function MemberDialog({ member, orgName, onClose, onDone }: MemberDialogProps) {
  const { t } = useTranslation(['careNetwork', 'records', 'validation']);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const invite = useInviteCareMember();
  const update = useUpdateCareMember();
  const titleId = useId();
  const accessLabelId = useId();
  const categoriesLabelId = useId();
  const categoriesHelpId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<MemberForm>({
    mode: 'onTouched',
    defaultValues: {
      name: member?.name ?? '',
      email: member?.email ?? '',
      access: member?.access ?? 'read-only',
      onlySome: member ? member.categories !== null : false,
      categories: member?.categories ?? [],
    },
  });
  const onlySome = useWatch({ control, name: 'onlySome' });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const categories = values.onlySome ? CARE_CATEGORIES.filter((c) => values.categories.includes(c)) : null;
    try {
      if (member) {
        await update.mutateAsync({ id: member.id, body: { access: values.access, categories } });
        onDone(t('notices.updated', { name: member.name }));
      } else {
        const created = await invite.mutateAsync({ name: values.name.trim(), email: values.email.trim(), access: values.access, categories });
        onDone(t('notices.invited', { email: created.email ?? values.email.trim() }));
      }
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: FIELDS, fallback: t('notices.failed') }));
    }
  });

  const categoriesError = errors.categories?.message ? t(errors.categories.message) : undefined;

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth fullScreen={phone}>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: 1 }}>
        <DialogTitle id={titleId}>{member ? t('change.title', { name: member.name }) : t('invite.title')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Typography color="text.secondary">{member ? t('change.intro') : t('invite.intro', { org: orgName })}</Typography>
            {failure && <Alert severity="error">{failure}</Alert>}
            {!member && (
              <>
                <TextInput
                  label={t('invite.name')}
                  helperText={t('invite.nameHint')}
                  autoComplete="off"
                  required
                  error={fieldErrorText(errors.name, t)}
                  {...register('name', { validate: required('validation:careNameRequired') })}
                />
                <TextInput
                  label={t('invite.email')}
                  type="email"
                  autoComplete="off"
                  required
                  error={fieldErrorText(errors.email, t)}
                  {...register('email', { validate: validateEmailField })}
                />
              </>
            )}
            <Controller
              name="access"
              control={control}
              render={({ field }) => (
                <FormControl component="fieldset">
                  <FormLabel component="legend" id={accessLabelId} sx={{ mb: 1 }}>
                    {t('invite.accessLegend')}
                  </FormLabel>
                  <RadioGroup aria-labelledby={accessLabelId} name={field.name} value={field.value} onChange={field.onChange} onBlur={field.onBlur}>
                    {(['read-only', 'full'] as const).map((level, index) => (
                      <FormControlLabel
                        key={level}
                        value={level}
                        sx={{ alignItems: 'flex-start', mb: 1, mr: 0 }}
                        control={<Radio sx={{ mt: -0.75 }} slotProps={{ input: { ref: index === 0 ? field.ref : undefined } }} />}
                        label={
                          <Box>
                            <Typography sx={{ fontWeight: 600 }}>{t(`access.${level}`)}</Typography>
                            <Typography variant="body2" color="text.secondary">
                              {level === 'full' ? t('access.fullHint') : t('access.readOnlyHint')}
                            </Typography>
                          </Box>
                        }
                      />
                    ))}
                  </RadioGroup>
                </FormControl>
              )}
            />
            <Controller
              name="onlySome"
              control={control}
              render={({ field }) => (
                <Box>
                  <FormControlLabel
                    control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} slotProps={{ input: { ref: field.ref } }} />}
                    label={t('invite.onlySome')}
                  />
                  {!field.value && (
                    <Typography variant="body2" color="text.secondary" sx={{ ml: 6.5, mt: -0.5 }}>
                      {t('invite.onlySomeHint')}
                    </Typography>
                  )}
                </Box>
              )}
            />
            {onlySome && (
              <Controller
                name="categories"
                control={control}
                rules={{ validate: (value) => (value.length > 0 ? true : t('invite.categoriesRequired')) }}
                render={({ field }) => (
                  <FormControl component="fieldset" error={Boolean(categoriesError)} aria-describedby={categoriesError ? categoriesHelpId : undefined}>
                    <FormLabel component="legend" id={categoriesLabelId}>
                      {t('invite.categoriesLegend')}
                    </FormLabel>
                    <FormGroup sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
                      {CARE_CATEGORIES.map((key, index) => (
                        <FormControlLabel
                          key={key}
                          label={categoryLabel(t, key)}
                          control={
                            <Checkbox
                              checked={field.value.includes(key)}
                              slotProps={{ input: { ref: index === 0 ? field.ref : undefined } }}
                              onChange={(e) => field.onChange(e.target.checked ? [...field.value, key] : field.value.filter((c) => c !== key))}
                            />
                          }
                        />
                      ))}
                    </FormGroup>
                    {categoriesError && (
                      <FormHelperText id={categoriesHelpId} role="alert">
                        {categoriesError}
                      </FormHelperText>
                    )}
                  </FormControl>
                )}
              />
            )}
            <Typography variant="body2" color="text.secondary">
              {t('members.privateNote')}
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('invite.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {member ? t('change.submit') : t('invite.submit')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
