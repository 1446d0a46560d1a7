import { useTranslation } from 'react-i18next';
import DialogContentText from '@mui/material/DialogContentText';
import type { Share } from '@healthbook/shared/contracts/sharing';
import { ConfirmDialog } from '../../../components/dialogs/confirm-dialog';
import { applyServerErrors } from '../../../lib/form-errors';
import { useRevokeShare } from '../api/revoke-share';

export interface RevokeDialogProps {
  /** The share to revoke; null: closed. */
  share: Pick<Share, 'id' | 'recipient_name'> | null;
  onClose: () => void;
  onRevoked: (share: Share) => void;
  onFailed: (message: string) => void;
}

/** "Revoke this share?": once confirmed the recipient can no longer open it. */
export function RevokeDialog({ share, onClose, onRevoked, onFailed }: RevokeDialogProps) {
  const { t } = useTranslation('sharing');
  const revoke = useRevokeShare();
  return (
    <ConfirmDialog
      open={share !== null}
      title={t('revoke.title')}
      confirmLabel={t('revoke.confirm')}
      destructive
      onCancel={onClose}
      onConfirm={() => {
        const id = share!.id;
        onClose();
        revoke.mutateAsync(id).then(onRevoked, (error: unknown) => onFailed(applyServerErrors(error, { fallback: t('revoke.failed') }) ?? t('revoke.failed')));
      }}
    >
      <DialogContentText>{t('revoke.text', { name: share?.recipient_name ?? '' })}</DialogContentText>
    </ConfirmDialog>
  );
}
