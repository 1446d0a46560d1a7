import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { FamilyMember } from '@healthbook/shared/contracts/family-members';
import { validateEmailField } from '@healthbook/shared/validation';
import { TextInput } from '../../../components/text-input';
import { applyServerErrors, fieldErrorText } from '../../../lib/form-errors';
import { useInviteFamilyMember } from '../api/invite-family-member';

export interface InviteDialogProps {
  member: FamilyMember;
  onClose: () => void;
  onSent: (member: FamilyMember, email: string) => void;
}

/** "Give them their own account": the e-mail address the sign-up access code goes to. */
export function InviteDialog({ member, onClose, onSent }: InviteDialogProps) {
  const { t } = useTranslation(['familyMembers', 'validation']);
  const titleId = useId();
  const invite = useInviteFamilyMember();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({ mode: 'onTouched', defaultValues: { email: member.invited?.email ?? '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setFailure(null);
    try {
      const saved = await invite.mutateAsync({ id: member.patient_id, body: { email: email.trim() } });
      onSent(saved, saved.invited?.email ?? email.trim());
    } catch (error) {
      setFailure(applyServerErrors(error, { setError, fields: ['email'], fallback: t('inviteForm.error') }));
    }
  });

  const name = member.first_name;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t('inviteForm.title', { name })}</DialogTitle>
      <Box component="form" noValidate onSubmit={onSubmit} sx={{ display: 'contents' }}>
        <DialogContent dividers>
          <Typography sx={{ mb: 2 }}>{t('inviteForm.text', { name })}</Typography>
          {failure && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          )}
          <TextInput type="email" label={t('inviteForm.email')} autoComplete="off" required error={fieldErrorText(errors.email, t)} {...register('email', { validate: validateEmailField })} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('form.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={isSubmitting}>
            {t('inviteForm.send')}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
