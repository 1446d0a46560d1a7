import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CssBaseline from '@mui/material/CssBaseline';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import Toolbar from '@mui/material/Toolbar';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ThemeProvider, type Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import CloseIcon from '@mui/icons-material/Close';
import HelpCenter from '@mui/icons-material/HelpCenter';
import Hub from '@mui/icons-material/Hub';
import MenuIcon from '@mui/icons-material/Menu';
import NotificationsNone from '@mui/icons-material/NotificationsNone';
import type { OrganizationDetail } from '@healthbook/shared/contracts/organizations';
import type { FeatureEntry } from '@healthbook/shared/contracts/features';
import { DelayedLoader } from '../../components/delayed-loader';
import { ThemeVars } from '../../components/plain/theme-vars';
import { LeaveSiteDialog } from '../../components/dialogs/leave-site-dialog';
import { ScrollToTop } from '../../components/dialogs/scroll-to-top';
import { Footer } from '../../components/footer';
import { UserAvatar } from '../../components/user-avatar';
import { useLinkedAccountMenuItems } from '../../features/connection-hub/components/linked-accounts-menu';
import { IdleAlert } from '../../features/session/components/idle-alert';
import { useSession } from '../../lib/auth';
import { isStaff } from '../../lib/roles';
import { rememberColorMode } from '../../lib/color-mode';
import { DashboardWidgetsContext } from '../../lib/dashboard-widgets';
import { useDrawer } from '../../lib/drawer-state';
import { saveOperation, useHubFeatures, type HubFeatures } from '../../lib/hub-features';
import { setLanguage } from '../../lib/i18n';
import { paths } from '../../lib/paths';
import { queryClient } from '../../lib/query-client';
import { buildTheme } from '../../lib/theme';
import { FEATURE_MODULES } from '../feature-modules';
import { NavDrawerContent } from './nav-drawer';
import { SHELL_NAMESPACES } from './namespaces';
import { AccessEndedMessage, recordSwitcherItems, useViewedRecordWatch, ViewedRecordBanner } from './viewed-record';
import { PendingInvitationReturn } from '../../features/care-network/components/pending-invitation-return';
import { patientsQueryOptions } from '../../lib/record-access';
import { useViewingPatientId, viewingPatient } from '../../lib/viewing-patient';
import { useKeepTimeZone } from '../../features/account/api/keep-time-zone';

/** The Reminders drawer's content (features/calendar), loaded when the drawer first opens. */
const RemindersPanel = lazy(() => import('../../features/calendar/components/reminders-panel'));
/** The display settings (features/account), loaded when their drawer first opens. */
const PreferencesTab = lazy(() => import('../../features/account/components/preferences-tab').then((m) => ({ default: m.PreferencesTab })));
/** The secure chat dialog (features/live-help), mounted once here so that a chat survives navigation. */
const LiveChatDock = lazy(() => import('../../features/live-help/components/live-chat-dock'));
/** The assistant's floating button and panel (features/help), while the organisation has it active. */
const AssistantWidget = lazy(() => import('../../features/help/components/assistant-widget'));

/** The spec's sizes: drawer 200 px on desktop, 330 px below; app bar 76 px from md up, 55 px below. */
const DRAWER_DESKTOP = 200;
const DRAWER_MOBILE = 330;
const BAR_HEIGHT = { xs: 55, md: 76 } as const;
const MAIN_MIN_HEIGHT = { xs: `calc(100dvh - ${BAR_HEIGHT.xs}px)`, md: `calc(100dvh - ${BAR_HEIGHT.md}px)` } as const;
/** The right-hand drawers (reminders, display settings) open over the app bar: their own header carries the title and the close button. */
const RIGHT_DRAWER = { zIndex: (th: Theme) => th.zIndex.drawer + 2 } as const;

export interface AppShellProps {
  org: OrganizationDetail;
  clientId: string;
  children: ReactNode;
}

/** The dashboard widgets of the features the member has active, in order; staff get none of a patient's own. */
function activeWidgets(features: HubFeatures, staff: boolean) {
  return FEATURE_MODULES.filter((m) => !m.feature || features.status(m.feature) === 'active')
    .flatMap((m) => (m.widgets ?? []).map((w) => (m.namespaces ? { ...w, namespaces: m.namespaces } : w)))
    .filter((w) => !(staff && w.patientsOnly))
    .sort((a, b) => a.order - b.order);
}

/**
 * The full layout of a signed-in member (§2 Application shell): the organisation's theme in
 * the member's light or dark mode; an app bar with the logo, Connection Hub, "Get … Help", the
 * reminders toggle and the avatar menu; the side navigation (permanent on desktop, a drawer on
 * smaller screens); the reminders and display-settings drawers; the idle-session alert, the
 * scroll-to-top button and the footer. Pages render inside.
 */
export default function AppShell(props: AppShellProps) {
  // The query client comes with the shell (and with each MUI page, lib/mui-page.tsx), not with the app: the sign-in page has none.
  return (
    <QueryClientProvider client={queryClient}>
      <AppShellView {...props} />
    </QueryClientProvider>
  );
}

function AppShellView({ org, clientId, children }: AppShellProps) {
  const { user, claims } = useSession();
  const { t, i18n } = useTranslation(SHELL_NAMESPACES);
  const navigate = useNavigate();
  const dark = user?.settings.dark === true;
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true });
  const shownLanguage = i18n.resolvedLanguage ?? 'en';
  const theme = useMemo(() => buildTheme(org.primary_color, dark ? 'dark' : 'light', { reduceMotion, language: shownLanguage }), [org.primary_color, dark, reduceMotion, shownLanguage]);
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const features = useHubFeatures(org.org, i18n.resolvedLanguage ?? 'en');
  const staff = user ? isStaff(user) : false;
  const widgets = useMemo(() => activeWidgets(features, staff), [features, staff]);
  const recordsActive = features.status('health-records') === 'active';
  const accessEnded = useViewedRecordWatch(clientId, recordsActive && claims?.access === 'full');
  const viewing = useViewingPatientId();
  const patients = useQuery({ ...patientsQueryOptions(), enabled: recordsActive && claims?.access === 'full' });

  const [navOpen, setNavOpen] = useDrawer('navDrawer');
  const [remindersOpen, setRemindersOpen] = useDrawer('calendarDrawer');
  const [settingsOpen, setSettingsOpen] = useDrawer('settingsDrawer');
  const [leaving, setLeaving] = useState<string | null>(null);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const menuButtonId = useId();
  const remindersTitleId = useId();
  const settingsTitleId = useId();

  // The member's settings follow them to every device: language, and light or dark (kept on
  // the device too, so the signed-out pages match).
  const language = user?.settings.language;
  useEffect(() => {
    if (language && language !== i18n.resolvedLanguage) void setLanguage(language);
  }, [language, i18n]);
  useEffect(() => {
    if (user) rememberColorMode(dark ? 'dark' : 'light');
  }, [user, dark]);
  useKeepTimeZone(user, claims?.access === 'full');

  const [switchError, setSwitchError] = useState<string | null>(null);
  const linkedItems = useLinkedAccountMenuItems({
    enabled: Boolean(user) && claims?.access === 'full' && features.status('connection-hub') === 'active',
    onChosen: () => setMenuAnchor(null),
    onFailed: setSwitchError,
  });

  const signOut = useCallback(() => {
    setMenuAnchor(null);
    void navigate(paths.logout(clientId));
  }, [navigate, clientId]);

  if (!user || claims?.access !== 'full') return <DelayedLoader label={t('common:app.loading')} />;

  const opened = (entry: FeatureEntry) => saveOperation(org.org, entry.id);
  const videos = features.entry('videos');
  const nav = (
    <NavDrawerContent
      features={features}
      user={user}
      clientId={clientId}
      videoChannelUrl={org.video_channel_url}
      onOpened={opened}
      onVideos={() => setLeaving(org.video_channel_url)}
      onReminders={() => setRemindersOpen(true)}
      onDone={() => {
        if (!desktop) setNavOpen(false);
      }}
    />
  );

  // The assistant's button has a place of its own in the shell (never over the page): the app bar on a phone, the drawer's foot on a desktop.
  const assistant =
    features.status('assistant') === 'active' ? (
      <Suspense fallback={null}>
        <AssistantWidget org={org} clientId={clientId} desktop={desktop} helpActive={features.status('help') === 'active'} liveChatActive={features.status('live-help') === 'active'} />
      </Suspense>
    ) : null;

  const barButton = (key: 'connection-hub' | 'help', label: string, icon: ReactNode) => {
    const entry = features.entry(key);
    if (!entry || entry.feature_status === 'disabled') return null;
    const active = entry.feature_status === 'active';
    const common = { color: 'inherit' as const, 'aria-label': label };
    const button = desktop ? (
      <Button
        {...common}
        startIcon={icon}
        {...(active ? { component: RouterLink, to: paths.feature(clientId, entry.feature_route ?? ''), onClick: () => opened(entry) } : { 'aria-disabled': true, onClick: (e: React.MouseEvent) => e.preventDefault() })}
        sx={{ opacity: active ? 1 : 0.6, whiteSpace: 'nowrap' }}
      >
        {label}
      </Button>
    ) : (
      <IconButton
        {...common}
        {...(active ? { component: RouterLink, to: paths.feature(clientId, entry.feature_route ?? ''), onClick: () => opened(entry) } : { 'aria-disabled': true, onClick: (e: React.MouseEvent) => e.preventDefault() })}
        sx={{ opacity: active ? 1 : 0.6 }}
      >
        {icon}
      </IconButton>
    );
    return active ? (
      button
    ) : (
      <Tooltip title={t('nav.comingSoon')} describeChild>
        <span>{button}</span>
      </Tooltip>
    );
  };

  const name = `${user.first_name} ${user.last_name}`.trim();

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {/* The plain parts (footer, loading views: components/plain) in the shell's colours. */}
      <ThemeVars primaryColor={org.primary_color} mode={dark ? 'dark' : 'light'} />
      {org.favicon_url && <link rel="icon" href={org.favicon_url} />}
      <meta name="theme-color" content={theme.palette.primary.main} />
      <DashboardWidgetsContext.Provider value={widgets}>
        <Box sx={{ display: 'flex', minHeight: '100dvh', bgcolor: 'background.default' }}>
          <Link
            href="#main"
            sx={{ position: 'absolute', left: -9999, '&:focus': { left: 16, top: 8, zIndex: 2000, bgcolor: 'background.paper', p: 1, borderRadius: 1 } }}
          >
            {t('common:app.skipToContent')}
          </Link>

          <AppBar position="fixed" color="inherit" elevation={0} // The line under the bar is drawn inside it, so that the bar is exactly 76 (55) px high.
            sx={{ zIndex: (th) => th.zIndex.drawer + 1, boxShadow: (th) => `inset 0 -1px 0 ${th.palette.divider}` }}>
            <Toolbar sx={{ minHeight: BAR_HEIGHT, height: BAR_HEIGHT, gap: { xs: 0.5, sm: 1 }, px: { xs: 1, sm: 2 } }}>
              {!desktop && (
                <IconButton edge="start" aria-label={navOpen ? t('nav.close') : t('nav.open')} aria-expanded={navOpen} onClick={() => setNavOpen(!navOpen)}>
                  <MenuIcon />
                </IconButton>
              )}
              <Box component={RouterLink} to={paths.dashboard(clientId)} aria-label={t('appBar.home', { orgName: org.org_name })} sx={{ display: 'flex', alignItems: 'center', minWidth: 0 }}>
                {org.logo_url ? (
                  <Box
                    component="img"
                    src={org.logo_url}
                    alt=""
                    // On a narrow phone the logo gives way to the bar's buttons (scaled, never under them).
                    sx={{ height: { xs: 30, md: 40 }, maxWidth: { xs: 'min(38vw, calc(100vw - 250px))', md: 220 }, objectFit: 'contain', objectPosition: 'left center', ...(dark ? { bgcolor: '#fff', borderRadius: 1, px: 0.75, py: 0.25 } : {}) }}
                  />
                ) : (
                  <Typography component="span" sx={{ fontWeight: 700, color: 'primary.main', fontSize: 20 }}>
                    {org.org_name}
                  </Typography>
                )}
              </Box>
              <Box sx={{ flex: 1 }} />
              {!desktop && assistant}
              {barButton('connection-hub', t('appBar.connectionHub'), <Hub />)}
              {barButton('help', t('appBar.help', { shortName: org.org_short_name }), <HelpCenter />)}
              {desktop && features.status('reminders') === 'active' && (
                <IconButton aria-label={t('appBar.openReminders')} aria-expanded={remindersOpen} onClick={() => setRemindersOpen(!remindersOpen)}>
                  <NotificationsNone />
                </IconButton>
              )}
              <IconButton
                id={menuButtonId}
                onClick={(e) => setMenuAnchor(e.currentTarget)}
                aria-label={t('appBar.accountMenu')}
                aria-haspopup="menu"
                aria-controls={menuAnchor ? menuId : undefined}
                aria-expanded={menuAnchor ? true : undefined}
                sx={{ p: 0.5 }}
              >
                <UserAvatar user={user} alt="" size={desktop ? 40 : 34} />
              </IconButton>
              <Menu
                id={menuId}
                anchorEl={menuAnchor}
                open={Boolean(menuAnchor)}
                onClose={() => setMenuAnchor(null)}
                anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
                transformOrigin={{ vertical: 'top', horizontal: 'right' }}
                slotProps={{ list: { 'aria-labelledby': menuButtonId } }}
              >
                <Box sx={{ px: 2, py: 1, maxWidth: 280 }} aria-hidden>
                  <ListItemText primary={name} secondary={user.email} slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }} />
                </Box>
                <Divider />
                {recordSwitcherItems({
                  patients: patients.data,
                  viewing,
                  t,
                  onChoose: (patientId) => {
                    setMenuAnchor(null);
                    viewingPatient.set(patientId);
                    void navigate(paths.dashboard(clientId));
                  },
                })}
                {Array.isArray(patients.data) && patients.data.some((p) => !p.is_self) && <Divider />}
                {!desktop && features.status('reminders') === 'active' && (
                  <MenuItem
                    onClick={() => {
                      setMenuAnchor(null);
                      setRemindersOpen(true);
                    }}
                  >
                    {t('appBar.reminders')}
                  </MenuItem>
                )}
                <MenuItem component={RouterLink} to={paths.profile(clientId)} onClick={() => setMenuAnchor(null)}>
                  {t('appBar.accountSettings')}
                </MenuItem>
                <MenuItem
                  onClick={() => {
                    setMenuAnchor(null);
                    setSettingsOpen(true);
                  }}
                >
                  {t('appBar.displaySettings')}
                </MenuItem>
                {linkedItems}
                {linkedItems.length > 0 && <Divider />}
                <MenuItem onClick={signOut}>{t('appBar.signOut')}</MenuItem>
              </Menu>
            </Toolbar>
          </AppBar>

          {desktop ? (
            <Drawer
              variant="permanent"
              sx={{ width: DRAWER_DESKTOP, flexShrink: 0, '& .MuiDrawer-paper': { width: DRAWER_DESKTOP, boxSizing: 'border-box' } }}
            >
              <Toolbar sx={{ minHeight: BAR_HEIGHT }} />
              {nav}
              {/* The assistant's own place, beside the page: the drawer's foot. */}
              {assistant && <Box sx={{ mt: 'auto', flexShrink: 0, p: 1.5, borderTop: 1, borderColor: 'divider' }}>{assistant}</Box>}
            </Drawer>
          ) : (
            <Drawer
              variant="temporary"
              open={navOpen}
              onClose={() => setNavOpen(false)}
              ModalProps={{ keepMounted: true }}
              // The open drawer is a dialog: it is named, like the navigation it holds (axe aria-dialog-name).
              slotProps={{ paper: { 'aria-label': t('nav.label') } }}
              sx={{ '& .MuiDrawer-paper': { width: DRAWER_MOBILE, maxWidth: '86vw', boxSizing: 'border-box' } }}
            >
              <Toolbar sx={{ minHeight: BAR_HEIGHT }} />
              {nav}
            </Drawer>
          )}

          <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
            <Toolbar sx={{ minHeight: BAR_HEIGHT }} />
            <ViewedRecordBanner clientId={clientId} top={BAR_HEIGHT} />
            <Box
              component="main"
              id="main"
              tabIndex={-1}
              // At least a screen high under the bar: the footer starts below the fold and does
              // not move as the page fills in (issue 27 §6: layout shift).
              sx={{ flex: 1, display: 'flex', flexDirection: 'column', outline: 'none', minHeight: MAIN_MIN_HEIGHT }}
            >
              {children}
            </Box>
            <Footer clientId={clientId} orgName={org.org_name} />
          </Box>

          <Drawer anchor="right" open={remindersOpen} onClose={() => setRemindersOpen(false)} sx={RIGHT_DRAWER} slotProps={{ paper: { 'aria-labelledby': remindersTitleId, sx: { width: DRAWER_MOBILE, maxWidth: '92vw' } } }}>
            <SideDrawerHeader titleId={remindersTitleId} title={t('reminders.title')} closeLabel={t('reminders.close')} onClose={() => setRemindersOpen(false)} />
            <Suspense fallback={<DelayedLoader label={t('calendar:drawer.loading')} />}>
              <RemindersPanel clientId={clientId} onNavigate={() => setRemindersOpen(false)} />
            </Suspense>
          </Drawer>

          <Drawer anchor="right" open={settingsOpen} onClose={() => setSettingsOpen(false)} sx={RIGHT_DRAWER} slotProps={{ paper: { 'aria-labelledby': settingsTitleId, sx: { width: DRAWER_MOBILE, maxWidth: '92vw' } } }}>
            <SideDrawerHeader titleId={settingsTitleId} title={t('settings.title')} closeLabel={t('settings.close')} onClose={() => setSettingsOpen(false)} />
            <Box sx={{ p: 3 }}>
              <Suspense fallback={<DelayedLoader label={t('common:app.loading')} />}>
                <PreferencesTab user={user} />
              </Suspense>
            </Box>
          </Drawer>

          <LeaveSiteDialog url={leaving} onClose={() => setLeaving(null)} onOpened={() => videos && opened(videos)} />
          {features.status('live-help') === 'active' && (
            <Suspense fallback={null}>
              <LiveChatDock org={org} clientId={clientId} />
            </Suspense>
          )}
          <Snackbar open={switchError !== null} autoHideDuration={8000} onClose={() => setSwitchError(null)} anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
            <Alert severity="error" onClose={() => setSwitchError(null)}>
              {switchError}
            </Alert>
          </Snackbar>
          <IdleAlert onLogout={signOut} />
          <AccessEndedMessage message={accessEnded} />
          <PendingInvitationReturn clientId={clientId} />
          <ScrollToTop />
        </Box>
      </DashboardWidgetsContext.Provider>
    </ThemeProvider>
  );
}

function SideDrawerHeader({ titleId, title, closeLabel, onClose }: { titleId: string; title: string; closeLabel: string; onClose: () => void }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, minHeight: BAR_HEIGHT, borderBottom: 1, borderColor: 'divider' }}>
      <Typography id={titleId} variant="h2" sx={{ flex: 1 }}>
        {title}
      </Typography>
      <IconButton aria-label={closeLabel} onClick={onClose}>
        <CloseIcon />
      </IconButton>
    </Box>
  );
}
