import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import TextField from '@mui/material/TextField';
import type { Person } from '@healthbook/shared/contracts/people';
import { ASSIGNABLE_ROLES, RESET_MFA_REASON_MAX, type AssignableRole } from '@healthbook/shared/people';
import { applyServerErrors } from '../../../lib/form-errors';
import { usePersonAction } from '../api/person-actions';

/** Chooses a person's roles (a provider who loses the role: their future bookings are cancelled, as the dialog says). */
export function RolesDialog({ person, onClose }: { person: Person; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation('people');
  const action = usePersonAction();
  const [roles, setRoles] = useState<AssignableRole[]>(ASSIGNABLE_ROLES.filter((r) => person.roles.includes(r)));
  const [failure, setFailure] = useState<string | null>(null);
  const name = `${person.first_name} ${person.last_name}`.trim();
  const losesProvider = person.roles.includes('provider') && !roles.includes('provider');
  const save = async () => {
    setFailure(null);
    try {
      await action.mutateAsync({ kind: 'roles', userId: person.user_id!, roles });
      onClose(true);
    } catch (error) {
      setFailure(applyServerErrors(error, { fallback: t('actionFailed') }));
    }
  };
  return (
    <Dialog open onClose={() => onClose(false)} aria-labelledby="roles-title" fullWidth maxWidth="xs">
      <DialogTitle id="roles-title">{t('rolesDialog.title', { name })}</DialogTitle>
      <DialogContent>
        {failure && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        )}
        <FormGroup>
          {ASSIGNABLE_ROLES.map((r) => (
            <FormControlLabel
              key={r}
              control={<Checkbox checked={roles.includes(r)} onChange={(e) => setRoles((now) => (e.target.checked ? [...now, r] : now.filter((x) => x !== r)))} />}
              label={t(`roles.${r}`)}
            />
          ))}
        </FormGroup>
        {losesProvider && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('rolesDialog.losesProvider')}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{t('cancel')}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={action.isPending}>
          {t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Resets a lost second factor: the reason is required, kept in the audit trail and e-mailed to the person. */
export function ResetMfaDialog({ person, onClose }: { person: Person; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation('people');
  const action = usePersonAction();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const name = `${person.first_name} ${person.last_name}`.trim();
  const save = async () => {
    if (!reason.trim()) return setError(t('mfaDialog.reasonRequired'));
    setError(null);
    try {
      await action.mutateAsync({ kind: 'reset-mfa', userId: person.user_id!, reason: reason.trim() });
      onClose(true);
    } catch (err) {
      setError(applyServerErrors(err, { fallback: t('actionFailed') }));
    }
  };
  return (
    <Dialog open onClose={() => onClose(false)} aria-labelledby="mfa-title" fullWidth maxWidth="sm">
      <DialogTitle id="mfa-title">{t('mfaDialog.title', { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('mfaDialog.intro')}</DialogContentText>
        <TextField
          label={t('mfaDialog.reason')}
          required
          fullWidth
          multiline
          minRows={2}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? ' '}
          slotProps={{ htmlInput: { maxLength: RESET_MFA_REASON_MAX } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => onClose(false)}>{t('cancel')}</Button>
        <Button variant="contained" color="warning" onClick={() => void save()} disabled={action.isPending}>
          {t('mfaDialog.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
