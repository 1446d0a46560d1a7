import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { CopyDirection, CopyRecordsResult, LinkedAccount } from '@healthbook/shared/contracts/connection-hub';
import { CATEGORY_KEYS } from '@healthbook/shared/records/categories';
import { applyServerErrors } from '../../../lib/form-errors';
import { useCopyRecords } from '../api/copy-records';

export interface CopyRecordsDialogProps {
  link: LinkedAccount;
  /** This account's organisation, as its members know it. */
  hereName: string;
  onClose: () => void;
  onCopied: (result: CopyRecordsResult) => void;
}

/** "Copy records": which way, and which kinds of record (their non-private records, through FHIR). */
export function CopyRecordsDialog({ link, hereName, onClose, onCopied }: CopyRecordsDialogProps) {
  const { t } = useTranslation(['connectionHub', 'records']);
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const titleId = useId();
  const directionId = useId();
  const categoriesId = useId();
  const [direction, setDirection] = useState<CopyDirection>('from-here');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const copy = useCopyRecords();

  const toggle = (key: string) => {
    setError(null);
    setChosen((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.size === 0) return setError(t('copy.nothingChosen'));
    setError(null);
    copy.mutate(
      { id: link.id, body: { categories: CATEGORY_KEYS.filter((k) => chosen.has(k)), direction } },
      { onSuccess: onCopied, onError: (e) => setError(applyServerErrors(e, { fallback: t('copy.failed') })) },
    );
  };
  const there = link.organization.name;

  return (
    <Dialog open onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('copy.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('copy.intro')}</DialogContentText>
          <FormControl component="fieldset" sx={{ mb: 2 }}>
            <FormLabel component="legend" id={directionId}>
              {t('copy.direction')}
            </FormLabel>
            <RadioGroup aria-labelledby={directionId} value={direction} onChange={(e) => setDirection(e.target.value as CopyDirection)}>
              <FormControlLabel value="from-here" control={<Radio />} label={t('copy.fromHere', { here: hereName, there })} />
              <FormControlLabel value="to-here" control={<Radio />} label={t('copy.toHere', { here: hereName, there })} />
            </RadioGroup>
          </FormControl>
          <FormControl component="fieldset" error={Boolean(error) && chosen.size === 0} sx={{ display: 'block' }}>
            <FormLabel component="legend" id={categoriesId}>
              {t('copy.categories')}
            </FormLabel>
            <Box sx={{ display: 'flex', gap: 1, my: 1 }}>
              <Button size="small" onClick={() => {
                  setError(null);
                  setChosen(new Set(CATEGORY_KEYS));
                }}>
                {t('copy.all')}
              </Button>
              <Button size="small" onClick={() => setChosen(new Set())}>
                {t('copy.none')}
              </Button>
            </Box>
            <FormGroup aria-labelledby={categoriesId} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
              {CATEGORY_KEYS.map((key) => (
                <FormControlLabel key={key} control={<Checkbox checked={chosen.has(key)} onChange={() => toggle(key)} />} label={t(`records:categories.${key}.other`)} />
              ))}
            </FormGroup>
            {error && chosen.size === 0 && <FormHelperText>{error}</FormHelperText>}
          </FormControl>
          {error && chosen.size > 0 && (
            <Alert severity="error" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
          <FormHelperText sx={{ mt: 2 }}>{t('copy.privateNote')}</FormHelperText>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={copy.isPending}>
            {t('copy.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
