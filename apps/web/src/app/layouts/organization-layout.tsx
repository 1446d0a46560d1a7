import { useMemo } from 'react';
import { Outlet, useLoaderData, useMatches, Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import CssBaseline from '@mui/material/CssBaseline';
import Link from '@mui/material/Link';
import { ThemeProvider } from '@mui/material/styles';
import { Footer } from '../../components/footer';
import { LanguageSwitch } from '../../components/language-switch';
import { paths } from '../../lib/paths';
import { buildTheme } from '../../lib/theme';
import type { OrganizationContext } from '../organization-loader';
import type { OrganizationOutletContext } from '../../lib/organization-context';

/**
 * The logged-out (and limited) layout of an organisation: its theme, favicon, logo and name from
 * the database (nothing per organisation in code), the language switch and the footer. A route
 * whose handle names the full layout draws its own frame (layouts/signed-in-layout).
 */
export function OrganizationLayout() {
  const { org, clientId, known } = useLoaderData() as OrganizationContext;
  const { t } = useTranslation();
  const theme = useMemo(() => buildTheme(org.primary_color), [org.primary_color]);
  const homeClientId = known ? clientId : org.name;
  const fullLayout = useMatches().some((m) => (m.handle as { layout?: string } | undefined)?.layout === 'full');

  if (fullLayout) return <Outlet context={{ org, clientId: homeClientId } satisfies OrganizationOutletContext} />;

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {org.favicon_url && <link rel="icon" href={org.favicon_url} />}
      <meta name="theme-color" content={theme.palette.primary.main} />
      <Box sx={{ minHeight: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
        <Link
          href="#main"
          sx={{
            position: 'absolute',
            left: -9999,
            '&:focus': { left: 16, top: 8, zIndex: 2000, bgcolor: 'background.paper', p: 1, borderRadius: 1 },
          }}
        >
          {t('app.skipToContent')}
        </Link>
        <Box
          component="header"
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 2,
            px: { xs: 2, sm: 4 },
            height: { xs: 56, md: 76 },
            bgcolor: 'background.paper',
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <RouterLink to={paths.login(homeClientId)} style={{ display: 'flex' }}>
            {org.logo_url ? (
              <Box component="img" src={org.logo_url} alt={t('login.logoAlt', { orgName: org.org_name })} sx={{ height: { xs: 32, md: 40 }, maxWidth: '60vw' }} />
            ) : (
              <Box component="span" sx={{ fontWeight: 700, color: 'primary.main', fontSize: 20 }}>
                {org.org_name}
              </Box>
            )}
          </RouterLink>
          <LanguageSwitch />
        </Box>
        <Box component="main" id="main" tabIndex={-1} sx={{ flex: 1, display: 'flex', flexDirection: 'column', outline: 'none' }}>
          <Outlet context={{ org, clientId: homeClientId } satisfies OrganizationOutletContext} />
        </Box>
        <Footer clientId={homeClientId} orgName={org.org_name} />
      </Box>
    </ThemeProvider>
  );
}
