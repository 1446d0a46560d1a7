import { useMemo } from 'react';
import { Outlet, useLoaderData, useMatches } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch';
import { paths } from '../../lib/paths';
import { buildTheme } from '../../lib/theme';
import type { OrganizationContext } from '../organization-loader';
import type { OrganizationOutletContext } from '../../lib/organization-context';
import { PageFrame } from './page-frame';

/**
 * The logged-out (and limited) layout of an organisation: its theme, favicon, logo and name from
 * the database (nothing per organisation in code), the language switch and the footer. A route
 * whose handle names the full layout draws its own frame (layouts/signed-in-layout).
 */
export function OrganizationLayout() {
  const { org, clientId, known } = useLoaderData() as OrganizationContext;
  const theme = useMemo(() => buildTheme(org.primary_color), [org.primary_color]);
  const homeClientId = known ? clientId : org.name;
  const fullLayout = useMatches().some((m) => (m.handle as { layout?: string } | undefined)?.layout === 'full');

  if (fullLayout) return <Outlet context={{ org, clientId: homeClientId } satisfies OrganizationOutletContext} />;

  return (
    <PageFrame theme={theme} org={org} clientId={homeClientId} homeTo={paths.login(homeClientId)} headerEnd={<LanguageSwitch />}>
      <Outlet context={{ org, clientId: homeClientId } satisfies OrganizationOutletContext} />
    </PageFrame>
  );
}
