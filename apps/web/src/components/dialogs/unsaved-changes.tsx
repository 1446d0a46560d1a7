import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { useTranslation } from 'react-i18next';
import DialogContentText from '@mui/material/DialogContentText';
import { ConfirmDialog } from './confirm-dialog';

/**
 * "Exit without saving?": while a form has unsaved changes, leaving its page (a link, the menu,
 * Back) asks first, and closing or reloading the tab gets the browser's own warning. Render the
 * element it answers. Forms: `const guard = useUnsavedChangesGuard(formState.isDirty)`.
 */
export function useUnsavedChangesGuard(dirty: boolean) {
  const { t } = useTranslation('shell');
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title={t('unsaved.title')}
      confirmLabel={t('unsaved.leave')}
      cancelLabel={t('unsaved.stay')}
      destructive
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      <DialogContentText>{t('unsaved.text')}</DialogContentText>
    </ConfirmDialog>
  );
}
