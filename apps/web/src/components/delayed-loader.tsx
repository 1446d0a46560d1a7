import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { keyframes } from '@mui/material/styles';
import { LOADER_DELAY_MS } from '@healthbook/shared/constants';

/** True once `active` has stayed true for the spec's loader delay (400 ms): quick loads show nothing. */
export function useDelayedFlag(active: boolean, delay = LOADER_DELAY_MS): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setElapsed(true), delay);
    return () => {
      clearTimeout(timer);
      setElapsed(false);
    };
  }, [active, delay]);
  return active && elapsed;
}

/** The loading view of a page: a spinner that appears only after 400 ms. Text is plain (no i18n yet at boot). */
export function DelayedLoader({ label = 'Loading…' }: { label?: string }) {
  const shown = useDelayedFlag(true);
  if (!shown) return null;
  return (
    <Box role="status" aria-live="polite" sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}>
      <CircularProgress aria-label={label} />
    </Box>
  );
}

const slide = keyframes`
  from { transform: translateX(-100%); }
  to { transform: translateX(250%); }
`;

/** A thin moving bar at the top while a navigation takes longer than 400 ms. */
export function NavigationProgress({ active, label }: { active: boolean; label: string }) {
  const shown = useDelayedFlag(active);
  if (!shown) return null;
  return (
    <Box
      role="progressbar"
      aria-label={label}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, height: 4, overflow: 'hidden', zIndex: 1200, bgcolor: 'action.hover' }}
    >
      <Box sx={{ width: '40%', height: '100%', bgcolor: 'primary.main', animation: `${slide} 1.2s ease-in-out infinite` }} />
    </Box>
  );
}
