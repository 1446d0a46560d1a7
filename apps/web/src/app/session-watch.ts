import { DEFAULT_CLIENT_ID } from '@healthbook/shared/constants';
import { normalizeClientId } from '@healthbook/shared/validation';
import { paths } from '../lib/paths';
import { session } from '../lib/session';

/** The route handle of pages drawn in the signed-in (full) layout. */
export const FULL_LAYOUT = { layout: 'full' } as const;

interface WatchedRouter {
  state: {
    navigation: { state: string };
    location: { pathname: string; search: string };
    matches: Array<{ route: { handle?: unknown; path?: string } }>;
  };
  navigate: (to: string, options?: { replace?: boolean }) => Promise<void>;
}

/**
 * When the session ends under a signed-in page (a refresh answered 401, another tab signed
 * out), go to the organisation's login. During a navigation the guards do that themselves.
 */
export function watchSessionEnd(router: WatchedRouter): () => void {
  return session.onDestroy(() => {
    const { navigation, location, matches } = router.state;
    if (navigation.state !== 'idle') return;
    const clientId = normalizeClientId(location.pathname.split('/')[1]) ?? DEFAULT_CLIENT_ID;
    const signedInPage = matches.some((m) => (m.route.handle as { layout?: string } | undefined)?.layout === FULL_LAYOUT.layout);
    if (signedInPage) void router.navigate(paths.loginFrom(clientId, `${location.pathname}${location.search}`), { replace: true });
    else if (matches.some((m) => m.route.path === 'verify')) void router.navigate(paths.login(clientId), { replace: true });
  });
}
