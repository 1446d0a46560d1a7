import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Clock } from '../hooks/clock';
import { useIdleCountdown } from '../hooks/use-idle-countdown';

export interface IdleAlertProps {
  /** Signs the user out (at zero, or on Logout). */
  onLogout: () => void;
  idleMs?: number;
  countdownS?: number;
  clock?: Clock;
}

/**
 * The session timeout alert: after 9 minutes without activity, 'Your session is about to
 * expire. Your session will be logged out in N seconds.', counting down from 60, with
 * Continue Session and Logout. At zero the user is signed out.
 */
export function IdleAlert({ onLogout, idleMs, countdownS, clock }: IdleAlertProps) {
  const { t } = useTranslation('account');
  const { open, remaining, keepAlive } = useIdleCountdown({
    onExpire: onLogout,
    ...(idleMs !== undefined ? { idleMs } : {}),
    ...(countdownS !== undefined ? { countdownS } : {}),
    ...(clock ? { clock } : {}),
  });

  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => {
        if (reason === 'escapeKeyDown') keepAlive();
      }}
      aria-labelledby="idle-alert-title"
      aria-describedby="idle-alert-text"
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id="idle-alert-title">{t('idle.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="idle-alert-text">{t('idle.text', { count: remaining })}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onLogout} color="inherit">
          {t('idle.logout')}
        </Button>
        <Button onClick={keepAlive} variant="contained" autoFocus>
          {t('idle.continue')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
