import { useEffect, useRef } from 'react';
import type { UserDto } from '@healthbook/shared/contracts/users';
import { userTimeZone } from '../../../lib/zoned-time';
import { useUpdateMe } from './update-me';

/**
 * An account without a time zone gets the browser's, once, when it is signed in with full access:
 * e-mails and PDFs write times in it (the member may choose another in Preferences).
 */
export function useKeepTimeZone(user: UserDto | null, enabled: boolean): void {
  const updateMe = useUpdateMe();
  const tried = useRef(false);
  const missing = Boolean(user) && !user?.settings.timeZone;
  useEffect(() => {
    if (!enabled || !missing || tried.current) return;
    tried.current = true;
    updateMe.mutate({ settings: { timeZone: userTimeZone() } });
  }, [enabled, missing, updateMe]);
}
