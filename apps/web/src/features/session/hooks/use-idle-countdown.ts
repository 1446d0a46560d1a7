import { useEffect, useRef, useState } from 'react';
import { IDLE_ALERT_COUNTDOWN_S, IDLE_TIMEOUT_MS } from '@healthbook/shared/constants';
import { systemClock, type Clock } from './clock';

/** What counts as the user being there. */
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'mousedown', 'mousemove', 'keydown', 'touchstart', 'wheel', 'scroll'] as const;

export interface IdleCountdownOptions {
  /** Called once when the countdown reaches zero. */
  onExpire: () => void;
  idleMs?: number;
  countdownS?: number;
  clock?: Clock;
  /** Where activity is listened for (the document, in capture phase). */
  target?: EventTarget;
}

export interface IdleCountdown {
  /** The alert is showing. */
  open: boolean;
  /** Seconds left before sign-out while the alert shows. */
  remaining: number;
  /** Continue Session: closes the alert and starts watching again. */
  keepAlive: () => void;
}

/**
 * After `idleMs` (9 minutes) without activity the alert opens and counts down from
 * `countdownS` (60 s); at zero `onExpire` runs. Activity only counts while the alert is closed.
 * Time is read from the clock's `now()`, so a sleeping laptop or a throttled tab still expires on time.
 */
export function useIdleCountdown({ onExpire, idleMs = IDLE_TIMEOUT_MS, countdownS = IDLE_ALERT_COUNTDOWN_S, clock = systemClock, target }: IdleCountdownOptions): IdleCountdown {
  const [open, setOpen] = useState(false);
  const [remaining, setRemaining] = useState(countdownS);
  const expire = useRef(onExpire);
  useEffect(() => {
    expire.current = onExpire;
  }, [onExpire]);

  // Watching for idleness while the alert is closed.
  useEffect(() => {
    if (open) return;
    const source = target ?? document;
    let lastActivity = clock.now();
    let timer: unknown;
    const check = () => {
      const idleFor = clock.now() - lastActivity;
      if (idleFor >= idleMs) {
        setRemaining(countdownS);
        setOpen(true);
      } else timer = clock.setTimeout(check, idleMs - idleFor);
    };
    const onActivity = () => {
      lastActivity = clock.now();
    };
    for (const type of ACTIVITY_EVENTS) source.addEventListener(type, onActivity, { capture: true, passive: true });
    timer = clock.setTimeout(check, idleMs);
    return () => {
      clock.clearTimeout(timer);
      for (const type of ACTIVITY_EVENTS) source.removeEventListener(type, onActivity, { capture: true });
    };
  }, [open, idleMs, countdownS, clock, target]);

  // Counting down while it is open.
  useEffect(() => {
    if (!open) return;
    const deadline = clock.now() + countdownS * 1000;
    let timer: unknown;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - clock.now()) / 1000));
      setRemaining(left);
      if (left === 0) {
        setOpen(false);
        expire.current();
        return;
      }
      const untilNextSecond = (deadline - clock.now()) % 1000;
      timer = clock.setTimeout(tick, untilNextSecond > 0 ? untilNextSecond : 1000);
    };
    timer = clock.setTimeout(tick, 1000);
    return () => clock.clearTimeout(timer);
  }, [open, countdownS, clock]);

  return { open, remaining, keepAlive: () => setOpen(false) };
}
