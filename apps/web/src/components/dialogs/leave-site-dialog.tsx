import { useTranslation } from 'react-i18next';
import DialogContentText from '@mui/material/DialogContentText';
import { GoBackProceedDialog } from './confirm-dialog';

/**
 * Before opening an external site (the organisation's video channel): "You are now leaving this
 * website, redirected to an external site, proceed?". Proceed opens it in a new tab, without
 * giving it a handle on this page (noopener, noreferrer).
 */
export function LeaveSiteDialog({ url, onClose, onOpened }: { url: string | null; onClose: () => void; onOpened?: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <GoBackProceedDialog
      open={url !== null}
      onGoBack={onClose}
      onProceed={() => {
        if (url) window.open(url, '_blank', 'noopener,noreferrer');
        onOpened?.();
        onClose();
      }}
    >
      <DialogContentText>{t('leaveSite.text')}</DialogContentText>
    </GoBackProceedDialog>
  );
}
