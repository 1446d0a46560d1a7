import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
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
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { GENDER_KEYS } from '@healthbook/shared/constants';
import type { FamilyMember } from '@healthbook/shared/contracts/family-members';
import { FAMILY_RELATIONSHIPS, type FamilyRelationship } from '@healthbook/shared/family-members';
import { parseDob, validateDobNotFuture } from '@healthbook/shared/validation';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useSaveFamilyMember } from '../api/save-family-member';

interface MemberForm {
  first_name: string;
  last_name: string;
  dob: string;
  gender: string;
  relationship: string;
}

const FIELDS = ['first_name', 'last_name', 'dob', 'gender', 'relationship'] as const;
const required = (message: string) => (value: string) => (value.trim() ? true : message);

export interface MemberDialogProps {
  /** The family member to change, or null for a new one. */
  member: FamilyMember | null;
  onClose: () => void;
  onSaved: (member: FamilyMember, created: boolean) => void;
}

/** Adding or changing a family member: names, date of birth (as at sign-up), sex, who they are to the user. */
export function MemberDialog({ member, onClose, onSaved }: MemberDialogProps) {
  const { t } = useTranslation(['familyMembers', 'validation']);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const genderLabelId = useId();
  const relationshipLabelId = useId();
  const save = useSaveFamilyMember();
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
      first_name: member?.first_name ?? '',
      last_name: member?.last_name ?? '',
      dob: member?.dob ?? '',
      gender: member?.gender ?? '',
      relationship: member?.relationship ?? '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const body = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      dob: parseDob(values.dob) ?? values.dob.trim(),
      gender: values.gender as (typeof GENDER_KEYS)[number],
      relationship: values.relationship as FamilyRelationship,
    };
    try {
      const saved = await save.mutateAsync({ id: member?.patient_id ?? null, body });
      onSaved(saved, member === null);
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: FIELDS, fallback: t('form.error') }));
    }
  });

  const genderError = fieldErrorText(errors.gender, t);
  const relationshipError = fieldErrorText(errors.relationship, t);
  const name = member ? `${member.first_name} ${member.last_name}` : '';

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm" fullScreen={phone}>
      <DialogTitle id={titleId}>{member ? t('form.editTitle', { name }) : t('form.addTitle')}</DialogTitle>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          )}
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2 }}>
            <TextInput
              label={t('form.firstName')}
              autoComplete="off"
              required
              error={fieldErrorText(errors.first_name, t)}
              {...register('first_name', { validate: required('validation:firstNameRequired') })}
            />
            <TextInput
              label={t('form.lastName')}
              autoComplete="off"
              required
              error={fieldErrorText(errors.last_name, t)}
              {...register('last_name', { validate: required('validation:lastNameRequired') })}
            />
          </Box>
          <TextInput
            label={t('form.dob')}
            helperText={t('form.dobHint')}
            inputProps={{ inputMode: 'numeric' }}
            autoComplete="off"
            required
            error={fieldErrorText(errors.dob, t)}
            {...register('dob', { validate: (value) => validateDobNotFuture(value) })}
          />
          <Controller
            name="relationship"
            control={control}
            rules={{ validate: required('validation:familyRelationshipInvalid') }}
            render={({ field }) => (
              <FormControl component="fieldset" required error={Boolean(relationshipError)} sx={{ mb: 2, display: 'flex' }}>
                <FormLabel component="legend" id={relationshipLabelId}>
                  {t('form.relationship')}
                </FormLabel>
                <RadioGroup row aria-labelledby={relationshipLabelId} name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur}>
                  {FAMILY_RELATIONSHIPS.map((key) => (
                    <FormControlLabel key={key} value={key} control={<Radio slotProps={{ input: { ref: key === FAMILY_RELATIONSHIPS[0] ? field.ref : undefined } }} />} label={t(`relationship.${key}`)} />
                  ))}
                </RadioGroup>
                {relationshipError && <FormHelperText role="alert">{relationshipError}</FormHelperText>}
              </FormControl>
            )}
          />
          <Controller
            name="gender"
            control={control}
            rules={{ validate: required('validation:genderInvalid') }}
            render={({ field }) => (
              <FormControl component="fieldset" required error={Boolean(genderError)} sx={{ display: 'flex' }}>
                <FormLabel component="legend" id={genderLabelId}>
                  {t('form.gender')}
                </FormLabel>
                <RadioGroup row aria-labelledby={genderLabelId} name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur}>
                  {GENDER_KEYS.map((key) => (
                    <FormControlLabel key={key} value={key} control={<Radio slotProps={{ input: { ref: key === GENDER_KEYS[0] ? field.ref : undefined } }} />} label={t(`gender.${key}`)} />
                  ))}
                </RadioGroup>
                {genderError && <FormHelperText role="alert">{genderError}</FormHelperText>}
              </FormControl>
            )}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {isSubmitting ? t('form.saving') : t('form.save')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
