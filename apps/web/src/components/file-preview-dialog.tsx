import { useId } from 'react';
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
import { DRAWN_IMAGE_TYPES, downloadFile, useFileObjectUrl } from '../lib/files';

/** What a preview needs of a file of the API (an attachment or a document). */
export interface PreviewableFile {
  file_name: string;
  content_type: string;
  url: string;
}

/** Types a browser draws by itself: images and PDF. */
const SHOWN = new Set([...DRAWN_IMAGE_TYPES, 'application/pdf']);

/** A file shown in the page (images, PDF), fetched with the session's token; others offer a download. */
export function FilePreviewDialog({ file, onClose }: { file: PreviewableFile | null; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const shown = file !== null && SHOWN.has(file.content_type);
  const { objectUrl, error } = useFileObjectUrl(shown ? file.url : null);

  return (
    <Dialog open={file !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
        {file?.file_name}
      </DialogTitle>
      {/* Scrollable when the file is larger than the screen: reachable by keyboard, as axe asks of scroll regions. */}
      <DialogContent dividers tabIndex={0} aria-label={file?.file_name} sx={{ p: 0, minHeight: { xs: 300, sm: 480 }, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'action.hover' }}>
        {file && !shown && (
          <Alert severity="info" sx={{ m: 2 }}>
            {t('preview.notShown')}
          </Alert>
        )}
        {shown && error && (
          <Alert severity="error" sx={{ m: 2 }}>
            {t('preview.failed')}
          </Alert>
        )}
        {shown && !error && !objectUrl && <CircularProgress aria-label={t('preview.loading')} />}
        {shown && objectUrl && file.content_type === 'application/pdf' && (
          <Box component="iframe" src={objectUrl} title={file.file_name} sx={{ border: 0, width: '100%', height: { xs: '75vh', sm: '75vh' } }} />
        )}
        {shown && objectUrl && file.content_type !== 'application/pdf' && (
          <Box component="img" src={objectUrl} alt={file.file_name} sx={{ maxWidth: '100%', maxHeight: '75vh', objectFit: 'contain', display: 'block' }} />
        )}
      </DialogContent>
      <DialogActions>
        {file && <Button onClick={() => void downloadFile(file.url, file.file_name)}>{t('preview.download')}</Button>}
        <Button onClick={onClose} variant="contained">
          {t('preview.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
