import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { fetchSharedFile } from '../api/shared-files';

export interface SharedFile {
  id: number;
  file_name: string;
  content_type: string;
}

/**
 * Types drawn in the page: images. (A PDF would need a frame of a blob: address, which the
 * server's Content-Security-Policy does not allow today: PDFs are downloaded.)
 */
const SHOWN = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
export const canPreview = (file: Pick<SharedFile, 'content_type'>) => SHOWN.has(file.content_type);

/** A shared file shown in the page, fetched with the recipient's session (not the address: an <iframe> cannot send the header). */
export function SharedFilePreview({ file, session, onClose, onDownload, onFailure }: { file: SharedFile | null; session: string; onClose(): void; onDownload(file: SharedFile): void; onFailure(error: unknown): void }) {
  const { t } = useTranslation('shareRecipient');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const [state, setState] = useState<{ id: number; objectUrl: string | null; error: boolean } | null>(null);

  useEffect(() => {
    if (!file || !canPreview(file)) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    fetchSharedFile(session, file.id, controller.signal).then(
      (blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ id: file.id, objectUrl, error: false });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState({ id: file.id, objectUrl: null, error: true });
        onFailure(error);
      },
    );
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [file, session, onFailure]);

  const current = state && file && state.id === file.id ? state : null;
  return (
    <Dialog open={file !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {file?.file_name}
      </DialogTitle>
      <DialogContent dividers tabIndex={0} aria-label={file?.file_name} sx={{ p: 0, minHeight: { xs: 300, sm: 480 }, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'action.hover' }}>
        {current?.error && (
          <Alert severity="error" sx={{ m: 2 }}>
            {t('content.previewFailed')}
          </Alert>
        )}
        {file && !current && <CircularProgress aria-label={t('content.previewLoading')} />}
        {file && current?.objectUrl && (
          <Box component="img" src={current.objectUrl} alt={file.file_name} sx={{ maxWidth: '100%', maxHeight: '75vh', objectFit: 'contain', display: 'block' }} />
        )}
      </DialogContent>
      <DialogActions>
        {file && <Button onClick={() => onDownload(file)}>{t('content.download')}</Button>}
        <Button onClick={onClose} variant="contained">
          {t('content.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
