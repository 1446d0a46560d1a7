import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

/** A message for the next page ("Condition successfully saved."), carried in the navigation's state. */
export interface Flash {
  severity: 'success' | 'error' | 'info';
  text: string;
}

/** The navigation state that carries a message to the page it leads to: `navigate(to, { state: flash(...) })`. */
export const flash = (text: string, severity: Flash['severity'] = 'success') => ({ flash: { severity, text } satisfies Flash });

/**
 * Shows the message a navigation brought (once: it is taken out of the history entry, so going
 * back or reloading does not show it again), or one the page sets itself.
 */
export function FlashMessage({ message, onClose }: { message?: Flash | null; onClose?: () => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  const carried = (location.state as { flash?: Flash } | null)?.flash ?? null;
  // What the navigation brought is kept here, then taken out of the history entry.
  const [brought, setBrought] = useState<Flash | null>(carried);
  const [seen, setSeen] = useState<Flash | null>(carried);
  if (carried && carried !== seen) {
    setSeen(carried);
    setBrought(carried);
  }
  useEffect(() => {
    if (carried) void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [carried, location.pathname, location.search, navigate]);

  const shown = message ?? brought;
  const close = () => {
    setBrought(null);
    onClose?.();
  };
  return (
    <Snackbar open={shown !== null} autoHideDuration={6000} onClose={(_e, reason) => reason !== 'clickaway' && close()} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      {shown ? (
        <Alert severity={shown.severity} variant="filled" onClose={close} sx={{ width: '100%' }}>
          {shown.text}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}
