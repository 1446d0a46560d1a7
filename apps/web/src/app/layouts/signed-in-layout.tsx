import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Link as RouterLink, Outlet, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { getContrastRatio, lighten } from '@mui/material/styles';
import { DEFAULT_PRIMARY_COLOR } from '@healthbook/shared/constants';
import { DelayedLoader } from '../../components/delayed-loader';
import { UserAvatar } from '../../components/user-avatar';
import { IdleAlert } from '../../features/session/components/idle-alert';
import { useSession } from '../../lib/auth';
import { setLanguage } from '../../lib/i18n';
import { useOrganizationContext, type OrganizationOutletContext } from '../../lib/organization-context';
import { paths } from '../../lib/paths';
import { buildTheme } from '../../lib/theme';
import { PageFrame } from './page-frame';

/** In dark mode the organisation's colour is lightened until it reads on the dark page (WCAG AA). */
function forDarkMode(color: string): string {
  let c = color;
  for (let i = 0; i < 10 && getContrastRatio(c, '#121212') < 4.6; i++) c = lighten(c, 0.1);
  return c;
}

/**
 * The full layout, for a signed-in user with full access: the organisation's theme in the
 * user's light or dark mode, an app bar with the logo and the avatar menu (Account Settings,
 * Sign Out), the idle-session alert and the footer. The guard (signedInGuard) runs first.
 */
export default function SignedInLayout() {
  const { org, clientId } = useOrganizationContext();
  const { user, claims } = useSession();
  const { t, i18n } = useTranslation(['account', 'common']);
  const navigate = useNavigate();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const buttonId = useId();

  const dark = user?.settings.dark === true;
  const theme = useMemo(
    () => (dark ? buildTheme(forDarkMode(org.primary_color ?? DEFAULT_PRIMARY_COLOR), 'dark') : buildTheme(org.primary_color)),
    [org.primary_color, dark],
  );

  // The language kept in the user's settings applies on every device they sign in on.
  const language = user?.settings.language;
  useEffect(() => {
    if (language && language !== i18n.resolvedLanguage) void setLanguage(language);
  }, [language, i18n]);

  const logout = useCallback(() => {
    setMenuAnchor(null);
    void navigate(paths.logout(clientId));
  }, [navigate, clientId]);

  if (!user || claims?.access !== 'full') return <DelayedLoader label={t('common:app.loading')} />;

  const name = `${user.first_name} ${user.last_name}`.trim();
  return (
    <PageFrame
      theme={theme}
      org={org}
      clientId={clientId}
      homeTo={paths.dashboard(clientId)}
      homeLabel={t('shell.home', { orgName: org.org_name })}
      dark={dark}
      headerEnd={
        <>
          <IconButton
            id={buttonId}
            onClick={(e) => setMenuAnchor(e.currentTarget)}
            aria-label={t('shell.accountMenu')}
            aria-haspopup="menu"
            aria-controls={menuAnchor ? menuId : undefined}
            aria-expanded={menuAnchor ? true : undefined}
            sx={{ p: 0.5 }}
          >
            <UserAvatar user={user} alt="" size={40} />
          </IconButton>
          <Menu
            id={menuId}
            anchorEl={menuAnchor}
            open={Boolean(menuAnchor)}
            onClose={() => setMenuAnchor(null)}
            anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
            transformOrigin={{ vertical: 'top', horizontal: 'right' }}
            slotProps={{ list: { 'aria-labelledby': buttonId } }}
          >
            <Box sx={{ px: 2, py: 1, maxWidth: 280 }} aria-hidden>
              <ListItemText primary={name} secondary={user.email} slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }} />
            </Box>
            <Divider />
            <MenuItem component={RouterLink} to={paths.profile(clientId)} onClick={() => setMenuAnchor(null)}>
              {t('shell.accountSettings')}
            </MenuItem>
            <MenuItem onClick={logout}>{t('shell.signOut')}</MenuItem>
          </Menu>
        </>
      }
      after={<IdleAlert onLogout={logout} />}
    >
      <Outlet context={{ org, clientId } satisfies OrganizationOutletContext} />
    </PageFrame>
  );
}
