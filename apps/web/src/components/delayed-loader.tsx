import { useEffect, useState } from 'react';
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

/**
 * The loading view of a page: a spinner (MUI's CircularProgress look, plain/plain.css) that
 * appears only after 400 ms. Text is plain (no i18n yet at boot).
 */
export function DelayedLoader({ label = 'Loading…' }: { label?: string }) {
  const shown = useDelayedFlag(true);
  if (!shown) return null;
  return (
    <div role="status" aria-live="polite" className="hb-loader">
      <span className="hb-spinner" role="progressbar" aria-label={label}>
        <svg viewBox="22 22 44 44">
          <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
        </svg>
      </span>
    </div>
  );
}

/** A thin moving bar at the top while a navigation takes longer than 400 ms. */
export function NavigationProgress({ active, label }: { active: boolean; label: string }) {
  const shown = useDelayedFlag(active);
  if (!shown) return null;
  return (
    <div role="progressbar" aria-label={label} className="hb-progress">
      <div />
    </div>
  );
}
