import { lazy, Suspense, useMemo } from 'react';
import { Outlet, useLoaderData, useLocation, useMatches } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch';
import { DelayedLoader } from '../../components/delayed-loader';
import { useSession } from '../../lib/auth';
import { useDeviceColorMode } from '../../lib/color-mode';
import { paths } from '../../lib/paths';
import type { OrganizationContext } from '../organization-loader';
import type { OrganizationOutletContext } from '../../lib/organization-context';
import { chooseLayout, namedLayout } from './choose-layout';
import { PageFrame } from './page-frame';

/**
 * The signed-in shell, loaded only when a member with full access is here (not on the sign-in
 * path). The signed-in routes start loading it with their checks (router.tsx), so it arrives
 * beside the page rather than after it.
 */
export const loadAppShell = () => import('../shell/app-shell');
const AppShell = lazy(loadAppShell);

/**
 * An organisation's pages in the frame the layout rules choose (choose-layout.ts): the
 * signed-in shell for a member with full access; otherwise its branding (theme, favicon, logo
 * and name from the database, nothing per organisation in code) with the language switch and
 * the footer, or, for adding users, with no more than the logo and the language switch.
 */
export function OrganizationLayout() {
  const { org, clientId, known } = useLoaderData() as OrganizationContext;
  const matches = useMatches();
  const { pathname } = useLocation();
  const { claims, user } = useSession();
  const mode = useDeviceColorMode();
  const theme = useMemo(() => ({ primaryColor: org.primary_color, mode }), [org.primary_color, mode]);
  const homeClientId = known ? clientId : org.name;
  const context = { org, clientId: homeClientId } satisfies OrganizationOutletContext;
  const layout = chooseLayout({
    named: namedLayout(matches),
    pathname,
    clientId: known ? clientId : null,
    access: claims?.access === 'full' ? (user ? 'full' : null) : (claims?.access ?? null),
  });

  switch (layout) {
    case 'full':
      return (
        <Suspense fallback={<DelayedLoader />}>
          <AppShell org={org} clientId={homeClientId}>
            <Outlet context={context} />
          </AppShell>
        </Suspense>
      );
    case 'minimal':
      return (
        <PageFrame theme={theme} org={org} clientId={homeClientId} homeTo={paths.login(homeClientId)} headerEnd={<LanguageSwitch />} footer={false}>
          <Outlet context={context} />
        </PageFrame>
      );
    // An unknown organisation's pages (its 404 page) wear the default organisation's branding.
    case 'default':
    case 'limited':
      return (
        <PageFrame theme={theme} org={org} clientId={homeClientId} homeTo={paths.login(homeClientId)} headerEnd={<LanguageSwitch />}>
          <Outlet context={context} />
        </PageFrame>
      );
  }
}
