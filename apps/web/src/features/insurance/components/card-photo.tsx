import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useFileObjectUrl } from '../../../lib/files';

export interface CardPhotoProps {
  /** The photo's API address (null: none). */
  url: string | null;
  /** "Front" / "Back", in the reader's language. */
  sideLabel: string;
  insurer: string;
}

/** A side of a card: the photo (fetched with the Authorization header), larger on a tap; a calm placeholder without one. */
export function CardPhoto({ url, sideLabel, insurer }: CardPhotoProps) {
  const { t } = useTranslation('insurance');
  const { objectUrl, error } = useFileObjectUrl(url);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const alt = t('photoAlt', { side: sideLabel, insurer });
  const frame = { width: '100%', aspectRatio: '1.586', borderRadius: 1, border: 1, borderColor: 'divider', bgcolor: 'action.hover', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' } as const;
  let content;
  if (!url) content = <Typography variant="body2" color="text.secondary">{t('noPhoto')}</Typography>;
  else if (error) content = <Typography variant="body2" color="text.secondary">{t('photoError')}</Typography>;
  else if (!objectUrl) content = <CircularProgress size={24} aria-label={t('photoLoading')} />;
  return (
    <Box component="figure" sx={{ m: 0, minWidth: 0 }}>
      {objectUrl ? (
        <ButtonBase onClick={() => setOpen(true)} aria-label={t('enlarge', { side: sideLabel.toLowerCase() })} sx={{ ...frame, p: 0 }} focusRipple>
          <Box component="img" src={objectUrl} alt={alt} sx={{ width: '100%', height: '100%', objectFit: 'contain' }} />
        </ButtonBase>
      ) : (
        <Box sx={frame}>{content}</Box>
      )}
      <Typography component="figcaption" variant="caption" color="text.secondary" sx={{ display: 'block', mt: 0.5 }}>
        {sideLabel}
      </Typography>
      {objectUrl && (
        <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md" fullWidth aria-labelledby={titleId}>
          <DialogTitle id={titleId}>{alt}</DialogTitle>
          <DialogContent>
            <Box component="img" src={objectUrl} alt={alt} sx={{ width: '100%', height: 'auto', display: 'block' }} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setOpen(false)}>{t('close')}</Button>
          </DialogActions>
        </Dialog>
      )}
    </Box>
  );
}
