import { useEffect, useState } from 'react';

/** The time now, renewed every minute by default (relative times, a share preset's expiry, a visit's window). */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
