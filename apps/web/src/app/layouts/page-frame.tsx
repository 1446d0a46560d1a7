import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import { Footer } from '../../components/footer';
import { FrameThemeContext, ThemeVars, type FrameTheme } from '../../components/plain/theme-vars';
import { brandColors } from '../../lib/palette';

export interface PageFrameProps {
  /** The organisation's colour and the mode: the frame's CSS variables, and the MUI theme of the pages in it (lib/lazy.ts). */
  theme: FrameTheme;
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
 * The frame of every page of an organisation: its colours, favicon, a skip link, the header
 * with its logo, the main region and the footer. Plain elements (components/plain/plain.css),
 * no MUI: the sign-in page is drawn in it. Pages that use MUI get the organisation's MUI theme
 * from lazyPage (lib/lazy.ts), which reads it from FrameThemeContext.
 */
export function PageFrame({ theme, org, clientId, homeTo, homeLabel, headerEnd, children, after, footer = true }: PageFrameProps) {
  const dark = theme.mode === 'dark';
  const { t } = useTranslation();
  return (
    <FrameThemeContext value={theme}>
      <ThemeVars primaryColor={theme.primaryColor} mode={theme.mode} />
      {org.favicon_url && <link rel="icon" href={org.favicon_url} />}
      <meta name="theme-color" content={brandColors(theme.primaryColor, theme.mode).primary} />
      <div className={dark ? 'hb-frame hb-dark' : 'hb-frame'}>
        <a href="#main" className="hb-link hb-skip">
          {t('common:app.skipToContent')}
        </a>
        <header className="hb-header">
          <RouterLink to={homeTo} className="hb-home" {...(homeLabel ? { 'aria-label': homeLabel } : {})}>
            {org.logo_url ? (
              <img className="hb-logo" src={org.logo_url} alt={homeLabel ? '' : t('common:login.logoAlt', { orgName: org.org_name })} />
            ) : (
              <span className="hb-org-name">{org.org_name}</span>
            )}
          </RouterLink>
          {headerEnd}
        </header>
        <main id="main" tabIndex={-1} className="hb-main">
          {children}
        </main>
        {footer && <Footer clientId={clientId} orgName={org.org_name} />}
        {after}
      </div>
    </FrameThemeContext>
  );
}
