import { Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { PRIVACY_DIALOG_MAX_WIDTH } from '@healthbook/shared/constants';
import { DelayedLoader } from './delayed-loader';
import { LegalDocument } from './legal-document';

export type LegalDoc = 'terms' | 'privacy';

/**
 * The Terms of Service or the Privacy Policy in a large scrollable dialog (up to 1300 px wide,
 * full screen on phones). The document's own heading is the visible title; the dialog is named
 * by the same words.
 */
export function LegalDialog({ doc, onClose }: { doc: LegalDoc | null; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const titleId = useId();
  // Keep the document while the dialog fades out.
  const [shown, setShown] = useState<LegalDoc | null>(doc);
  if (doc && doc !== shown) setShown(doc);
  return (
    <Dialog
      open={doc !== null}
      onClose={onClose}
      scroll="paper"
      fullScreen={fullScreen}
      fullWidth
      maxWidth={false}
      aria-labelledby={titleId}
      slotProps={{ paper: { sx: fullScreen ? {} : { maxWidth: PRIVACY_DIALOG_MAX_WIDTH } } }}
    >
      <span id={titleId} hidden>
        {shown ? t(`legalDialog.${shown}`) : ''}
      </span>
      {/* The document has no links: the scrolling area itself takes focus, so the keyboard can scroll it. */}
      <DialogContent dividers tabIndex={0} role="region" aria-labelledby={titleId} sx={{ p: 0 }}>
        <Suspense fallback={<DelayedLoader label={t('common.loading')} />}>
          {shown && <LegalDocument doc={shown} headingLevel={2} showHomeLink={false} />}
        </Suspense>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
