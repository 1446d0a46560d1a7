import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import type { CalendarEvent } from '@healthbook/shared/contracts/calendar';
import type { EventFormValues } from '../event-values';
import { useEventForm } from './event-form';

export interface EventDialogProps {
  /** The new event's starting values; null: closed. */
  initial: EventFormValues | null;
  tz: string;
  onClose: () => void;
  onSaved: (event: CalendarEvent) => void;
}

/** "New event": the calendar's dialog for a day that was clicked (full screen on a phone). */
export function EventDialog({ initial, tz, onClose, onSaved }: EventDialogProps) {
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  return (
    <Dialog open={initial !== null} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="event-dialog-title">
      {/* A new form for each opening: the key resets it. */}
      {initial && <EventDialogForm key={JSON.stringify(initial)} initial={initial} tz={tz} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

function EventDialogForm({ initial, tz, onClose, onSaved }: { initial: EventFormValues; tz: string; onClose: () => void; onSaved: (event: CalendarEvent) => void }) {
  const { t } = useTranslation('calendar');
  const formId = useId();
  const { onSubmit, fields, submitting } = useEventForm({ initial, tz, onSaved, autoFocus: true });
  return (
    <>
      <DialogTitle id="event-dialog-title">{t('form.newTitle')}</DialogTitle>
      <DialogContent dividers>
        <form id={formId} noValidate onSubmit={onSubmit}>
          {fields}
        </form>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        <Button onClick={onClose}>{t('form.cancel')}</Button>
        <Button type="submit" form={formId} variant="contained" disabled={submitting}>
          {t('form.save')}
        </Button>
      </DialogActions>
    </>
  );
}
