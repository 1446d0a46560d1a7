import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import CssBaseline from '@mui/material/CssBaseline';
import Link from '@mui/material/Link';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { Footer } from '../../components/footer';

export interface PageFrameProps {
  theme: Theme;
  org: OrganizationDetail;
  /** The client id links (footer, logo) go to. */
  clientId: string;
  /** Where the logo leads, and its accessible name when the logo image itself has none. */
  homeTo: string;
  homeLabel?: string;
  /** The right side of the header (language switch, account menu). */
  headerEnd: ReactNode;
  /** The page; `after` comes after the footer (dialogs). */
  children: ReactNode;
  after?: ReactNode;
  /** The minimal layout (adding users) has no footer. */
  footer?: boolean;
}

/**
 * The frame of every page of an organisation: its theme, favicon and colour, a skip link,
 * the header with its logo, the main region and the footer.
 */
export function PageFrame({ theme, org, clientId, homeTo, homeLabel, headerEnd, children, after, footer = true }: PageFrameProps) {
  const dark = theme.palette.mode === 'dark';
  const { t } = useTranslation();
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
          {t('common:app.skipToContent')}
        </Link>
        <Box
          component="header"
          sx={{
            position: 'sticky',
            top: 0,
            zIndex: 'appBar',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: 2,
            px: { xs: 2, sm: 4 },
            height: { xs: 55, md: 76 },
            bgcolor: 'background.paper',
            borderBottom: 1,
            borderColor: 'divider',
          }}
        >
          <RouterLink to={homeTo} style={{ display: 'flex' }} {...(homeLabel ? { 'aria-label': homeLabel } : {})}>
            {org.logo_url ? (
              <Box
                component="img"
                src={org.logo_url}
                alt={homeLabel ? '' : t('common:login.logoAlt', { orgName: org.org_name })}
                sx={{ height: { xs: 32, md: 40 }, maxWidth: '55vw', ...(dark ? { bgcolor: '#fff', borderRadius: 1, px: 0.75, py: 0.25 } : {}) }}
              />
            ) : (
              <Box component="span" sx={{ fontWeight: 700, color: 'primary.main', fontSize: 20 }}>
                {org.org_name}
              </Box>
            )}
          </RouterLink>
          {headerEnd}
        </Box>
        <Box component="main" id="main" tabIndex={-1} sx={{ flex: 1, display: 'flex', flexDirection: 'column', outline: 'none' }}>
          {children}
        </Box>
        {footer && <Footer clientId={clientId} orgName={org.org_name} />}
        {after}
      </Box>
    </ThemeProvider>
  );
}
