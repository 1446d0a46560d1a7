import { useEffect, useRef } from 'react';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { getSessionState, setUser } from '../../../lib/auth';
import { userTimeZone } from '../../../lib/zoned-time';
import { updateMe } from './update-me';

/**
 * An account without a time zone gets the browser's, once, when it is signed in with full access:
 * e-mails and PDFs write times in it (the member may choose another in Preferences). Kept
 * quietly: if it cannot be saved now, the next sign-in tries again.
 */
export function useKeepTimeZone(user: UserDto | null, enabled: boolean): void {
  const tried = useRef(false);
  const missing = Boolean(user) && !user?.settings.timeZone;
  useEffect(() => {
    if (!enabled || !missing || tried.current) return;
    tried.current = true;
    const timeZone = userTimeZone();
    updateMe({ settings: { timeZone } })
      .then(() => {
        const current = getSessionState().user;
        if (current) setUser({ ...current, settings: { ...current.settings, timeZone } });
      })
      .catch(() => undefined);
  }, [enabled, missing]);
}
