import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../../../lib/paths';
import { pendingInvitation } from '../pending-invitation';

/**
 * In the signed-in shell: a tab that came from a care-network invitation and went through
 * sign-up (or a sign-in elsewhere than the invitation) is brought back to the invitation once,
 * to accept it.
 */
export function PendingInvitationReturn({ clientId }: { clientId: string }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    const target = paths.caringPersonInfo(clientId);
    if (pathname === target || !pendingInvitation.shouldReturn()) return;
    pendingInvitation.markReturned();
    void navigate(target, { replace: true });
  }, [clientId, navigate, pathname]);
  return null;
}
