import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { INFO_DIALOG_WIDTH } from '@healthbook/shared/constants';

export interface ConfirmDialogProps {
  open: boolean;
  /** Default: "Confirm". */
  title?: string;
  children: ReactNode;
  onConfirm: () => void;
  /** Cancel, Esc or a click outside. */
  onCancel: () => void;
  /** Default: "Yes". */
  confirmLabel?: string;
  /** Default: "Cancel". */
  cancelLabel?: string;
  /** A destructive action (deleting, leaving without saving) shows its button in the error colour. */
  destructive?: boolean;
}

/** The confirm dialog of the spec: title "Confirm" unless named, Yes / Cancel; Esc cancels. */
export function ConfirmDialog({ open, title, children, onConfirm, onCancel, confirmLabel, cancelLabel, destructive = false }: ConfirmDialogProps) {
  const { t } = useTranslation('shell');
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId} aria-describedby={textId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{title ?? t('dialogs.confirm')}</DialogTitle>
      <DialogContent id={textId}>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{cancelLabel ?? t('dialogs.cancel')}</Button>
        <Button onClick={onConfirm} variant="contained" color={destructive ? 'error' : 'primary'}>
          {confirmLabel ?? t('dialogs.yes')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export interface InfoDialogProps {
  open: boolean;
  /** Default: "Confirm" (as the spec's information dialog). */
  title?: string;
  children: ReactNode;
  /** OK, Esc or a click outside. */
  onClose: () => void;
}

/** The information dialog of the spec: OK only, default title "Confirm", 300 px wide; Esc or OK closes it. */
export function InfoDialog({ open, title, children, onClose }: InfoDialogProps) {
  const { t } = useTranslation('shell');
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      slotProps={{ paper: { sx: { width: INFO_DIALOG_WIDTH, maxWidth: 'calc(100% - 32px)' } } }}
    >
      <DialogTitle id={titleId}>{title ?? t('dialogs.confirm')}</DialogTitle>
      <DialogContent id={textId}>{children}</DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {t('dialogs.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export interface GoBackProceedDialogProps {
  open: boolean;
  title?: string;
  children: ReactNode;
  onProceed: () => void;
  /** Go back, Esc or a click outside. */
  onGoBack: () => void;
}

/** The Go back / Proceed alert of the spec (leaving the site for an external one, leaving a form). */
export function GoBackProceedDialog({ open, title, children, onProceed, onGoBack }: GoBackProceedDialogProps) {
  const { t } = useTranslation('shell');
  return (
    <ConfirmDialog
      open={open}
      title={title ?? t('dialogs.alert')}
      onConfirm={onProceed}
      onCancel={onGoBack}
      confirmLabel={t('dialogs.proceed')}
      cancelLabel={t('dialogs.goBack')}
    >
      {children}
    </ConfirmDialog>
  );
}
