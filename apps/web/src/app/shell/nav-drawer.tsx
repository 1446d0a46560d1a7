import { useId } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Tooltip from '@mui/material/Tooltip';
import EditCalendar from '@mui/icons-material/EditCalendar';
import Forum from '@mui/icons-material/Forum';
import EventNote from '@mui/icons-material/EventNote';
import ManageAccounts from '@mui/icons-material/ManageAccounts';
import PersonAdd from '@mui/icons-material/PersonAdd';
import Groups from '@mui/icons-material/Groups';
import Tune from '@mui/icons-material/Tune';
import Article from '@mui/icons-material/Article';
import Business from '@mui/icons-material/Business';
import Quiz from '@mui/icons-material/Quiz';
import PersonRemove from '@mui/icons-material/PersonRemove';
import CloudSync from '@mui/icons-material/CloudSync';
import type { UserDto } from '@healthbook/shared/contracts/users';
import type { FeatureEntry } from '@healthbook/shared/contracts/features';
import { featureArea } from '@healthbook/shared/features';
import { useRecordAccess } from '../../lib/record-access';
import { FeatureIcon } from '../../components/feature-icon';
import { visuallyHidden } from '../../components/visually-hidden';
import type { HubFeatures } from '../../lib/hub-features';
import { paths } from '../../lib/paths';
import { isAdministrator, isChatStaff, isProvider, isStaff } from '../../lib/roles';
import { arrangeMenu, NAV_GROUPS, type NavItem } from '../navigation';

export interface NavActions {
  /** A feature's page was opened from the menu (saved as an operation). */
  onOpened: (entry: FeatureEntry) => void;
  /** The menu's Videos item: confirm, then the external channel. */
  onVideos: () => void;
  /** The menu's Reminders item: the reminders drawer. */
  onReminders: () => void;
  /** After any choice (the phone drawer closes). */
  onDone: () => void;
}

interface NavDrawerContentProps extends NavActions {
  features: HubFeatures;
  user: UserDto;
  clientId: string;
  videoChannelUrl: string | null;
}

/**
 * The side navigation: the spec's menu groups; each item by its feature's status — disabled:
 * hidden; inactive: shown greyed with "Coming Soon!" and going nowhere (still reachable by
 * keyboard, so the tooltip can be read); active: a link. Empty groups are left out.
 */
export function NavDrawerContent({ features, user, clientId, videoChannelUrl, onOpened, onVideos, onReminders, onDone }: NavDrawerContentProps) {
  const { t } = useTranslation(['shell']);
  const location = useLocation();
  const labelId = useId();
  const here = `${location.pathname}${location.search}`;

  // Someone else's record open: only what their grant reaches of it (the server's own rules).
  const { viewingOther, reads } = useRecordAccess();
  const visible = (item: NavItem) => {
    const entry = features.entry(item.feature);
    if (!entry || entry.feature_status === 'disabled') return null;
    const area = featureArea(item.feature);
    if (viewingOther && area && !reads[area]) return null;
    if (item.feature === 'videos' && !videoChannelUrl) return null;
    if (item.requires) {
      // The item opens another feature's page: it follows that feature too.
      const required = features.status(item.requires);
      if (required === 'disabled') return null;
      if (required !== 'active' && entry.feature_status === 'active') return { ...entry, feature_status: required };
    }
    return entry;
  };

  const groups = arrangeMenu(
    NAV_GROUPS.filter((g) => (!g.adminOnly || isAdministrator(user)) && (!g.staffOnly || isProvider(user) || isChatStaff(user))),
    { staff: isStaff(user), visible },
  );

  return (
    <Box component="nav" aria-labelledby={labelId} sx={{ overflowY: 'auto', pb: 2 }}>
      <Box id={labelId} sx={visuallyHidden}>
        {t('nav.label')}
      </Box>
      {groups.map(({ group, items }, index) => {
        const adminLinks = group.adminOnly ? adminItems(user, clientId, t) : group.staffOnly ? staffItems(user, features, clientId, t) : [];
        if (items.length === 0 && adminLinks.length === 0) return null;
        const headingId = `${labelId}-${group.id}`;
        // A peer coach is no telehealth provider: their group holds the chat console only.
        const title = group.staffOnly && !isProvider(user) ? 'groups.coaching' : group.title;
        return (
          <Box key={group.id}>
            {index > 0 && <Divider sx={{ my: 0.5 }} />}
            <List
              dense
              aria-labelledby={title ? headingId : undefined}
              subheader={
                title ? (
                  <ListSubheader id={headingId} disableSticky sx={{ lineHeight: '32px', bgcolor: 'transparent', fontWeight: 600 }}>
                    {t(`nav.${title}`)}
                  </ListSubheader>
                ) : undefined
              }
            >
              {items.map(({ item, entry }) => {
                const label = item.label ? t(`nav.${item.label}`) : entry.display_name;
                const icon = (
                  <ListItemIcon sx={{ minWidth: 36 }}>
                    <FeatureIcon name={item.icon ?? entry.icon_name} fontSize="small" />
                  </ListItemIcon>
                );
                if (entry.feature_status !== 'active') {
                  return (
                    <li key={`${group.id}-${item.feature}-${item.route ?? ''}`}>
                      <Tooltip title={t('nav.comingSoon')} placement="right" describeChild>
                        <ListItemButton
                          aria-disabled="true"
                          onClick={(event) => event.preventDefault()}
                          sx={{ opacity: 0.6, cursor: 'default' }}
                        >
                          {icon}
                          <ListItemText primary={label} />
                        </ListItemButton>
                      </Tooltip>
                    </li>
                  );
                }
                if (item.feature === 'videos' || item.feature === 'reminders') {
                  return (
                    <li key={`${group.id}-${item.feature}-${item.route ?? ''}`}>
                      <ListItemButton
                        onClick={() => {
                          if (item.feature === 'videos') onVideos();
                          else {
                            onOpened(entry);
                            onReminders();
                          }
                          onDone();
                        }}
                      >
                        {icon}
                        <ListItemText primary={label} />
                      </ListItemButton>
                    </li>
                  );
                }
                const to = paths.feature(clientId, item.route ?? entry.feature_route ?? '');
                const current = here === to || location.pathname === to;
                return (
                  <li key={`${group.id}-${item.feature}-${item.route ?? ''}`}>
                    <ListItemButton
                      component={RouterLink}
                      to={to}
                      selected={current}
                      aria-current={current ? 'page' : undefined}
                      onClick={() => {
                        if (item.feature !== 'sign-out') onOpened(entry);
                        onDone();
                      }}
                    >
                      {icon}
                      <ListItemText primary={label} />
                    </ListItemButton>
                  </li>
                );
              })}
              {adminLinks.map((link) => (
                <li key={link.to}>
                  <ListItemButton
                    component={RouterLink}
                    to={link.to}
                    selected={location.pathname === link.to}
                    aria-current={location.pathname === link.to ? 'page' : undefined}
                    onClick={onDone}
                  >
                    <ListItemIcon sx={{ minWidth: 36 }}>{link.icon}</ListItemIcon>
                    <ListItemText primary={link.label} />
                  </ListItemButton>
                </li>
              ))}
            </List>
          </Box>
        );
      })}
    </Box>
  );
}

/** Administration pages that are not catalogue features: people, the organisations (super admins), inviting patients, the organisation's features, help articles, survey sets, the sources of records and pending account closings. */
function adminItems(user: UserDto, clientId: string, t: (key: string) => string) {
  if (!isAdministrator(user)) return [];
  return [
    { to: paths.adminHome(clientId), label: t('nav.items.people'), icon: <Groups fontSize="small" /> },
    ...(user.is_superadmin ? [{ to: paths.organizations(clientId), label: t('nav.items.organizations'), icon: <Business fontSize="small" /> }] : []),
    { to: paths.invitePatient(clientId), label: t('nav.items.invitePatient'), icon: <PersonAdd fontSize="small" /> },
    { to: paths.featureSettings(clientId), label: t('nav.items.featureSettings'), icon: <Tune fontSize="small" /> },
    { to: paths.helpArticlesEditor(clientId), label: t('nav.items.helpArticles'), icon: <Article fontSize="small" /> },
    { to: paths.surveysEditor(clientId), label: t('nav.items.surveySets'), icon: <Quiz fontSize="small" /> },
    { to: paths.recordSources(clientId), label: t('nav.items.recordSources'), icon: <CloudSync fontSize="small" /> },
    { to: paths.accountClosings(clientId), label: t('nav.items.accountClosings'), icon: <PersonRemove fontSize="small" /> },
  ];
}

/**
 * The staff's pages: the chat console for providers and peer coaches (while Live Help is active
 * for the organisation), the telehealth pages (availability, appointments, profile) for providers only.
 */
function staffItems(user: UserDto, features: HubFeatures, clientId: string, t: (key: string) => string) {
  const chat =
    isChatStaff(user) && features.status('live-help') === 'active'
      ? [{ to: paths.providerChat(clientId), label: t('nav.items.chatConsole'), icon: <Forum fontSize="small" /> }]
      : [];
  if (!isProvider(user)) return chat;
  // The provider's console first (where they land, lib/roles.ts consolePath), then their chats.
  return [
    { to: paths.providerAppointments(clientId), label: t('nav.items.providerAppointments'), icon: <EventNote fontSize="small" /> },
    ...chat,
    { to: paths.providerAvailability(clientId), label: t('nav.items.providerAvailability'), icon: <EditCalendar fontSize="small" /> },
    { to: paths.providerProfile(clientId), label: t('nav.items.providerProfile'), icon: <ManageAccounts fontSize="small" /> },
  ];
}
