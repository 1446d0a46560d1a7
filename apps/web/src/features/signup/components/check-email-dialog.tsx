import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import SvgIcon from '@mui/material/SvgIcon';

/** After sign-up: "Check your email". Closing it in any way (×, OK, Esc) goes on to sign-in. */
export function CheckEmailDialog({ open, email, onClose }: { open: boolean; email: string; onClose: () => void }) {
  const { t } = useTranslation('auth');
  return (
    <Dialog open={open} onClose={onClose} aria-describedby="check-email-text" maxWidth="xs" fullWidth>
      <DialogTitle sx={{ pr: 6 }}>{t('signup.checkEmail.title')}</DialogTitle>
      <IconButton aria-label={t('common.close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
        <SvgIcon>
          <path d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z" />
        </SvgIcon>
      </IconButton>
      <DialogContent>
        <DialogContentText id="check-email-text">{t('signup.checkEmail.text', { email })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} autoFocus>
          {t('common.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
