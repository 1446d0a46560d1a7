import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { DelayedLoader } from '../../../components/delayed-loader';
import { useOrganizationContext } from '../../../lib/organization-context';
import { paths } from '../../../lib/paths';
import { entryOf, isWellFormedLink, shareSession } from '../share-session';

/**
 * The address a recipient opens (sharedrecords, shareddocs, sharedqrcoderecords /{uid}/{token}):
 * the uid and token go to session storage and the address is replaced at once by the
 * verification page's, so the token leaves the address bar and the history. A malformed one
 * leads to the expired page, as an unknown one does. Plain (no MUI): nothing is drawn.
 */
export default function ShareEntryPage() {
  const { clientId } = useOrganizationContext();
  const { uid, token } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const done = useRef(false);

  useEffect(() => {
    if (done.current) return;
    done.current = true;
    const entry = entryOf(pathname.split('/')[2]);
    if (!entry || !isWellFormedLink(uid, token)) {
      shareSession.clear();
      void navigate(paths.shareExpired(clientId), { replace: true });
      return;
    }
    shareSession.start({ uid: uid!, token: token!, ...entry });
    void navigate(paths.shareVerification(clientId, entry.kind, entry.method), { replace: true });
  }, [clientId, uid, token, pathname, navigate]);

  return <DelayedLoader />;
}
