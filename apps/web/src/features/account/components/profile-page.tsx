import { useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { HubPage } from '../../../components/hub-page';
import { useOrganizationContext } from '../../../lib/organization-context';
import { useCurrentUser } from '../../../lib/auth';
import { AvatarEditor } from './avatar-editor';
import { PasswordTab } from './password-tab';
import { PersonalInfoTab } from './personal-info-tab';
import { PreferencesTab } from './preferences-tab';
import { PrivacyTab } from './privacy-tab';
import { SecurityTab } from './security-tab';

/** The tabs, in the order of their tabId (the spec's tabId 3 is the security tab). */
const TABS = ['personal', 'password', 'preferences', 'security', 'privacy'] as const;

export interface ProfileNotice {
  notice?: 'mfaEnabled';
}

/** Account settings: personal info, password, preferences, security and privacy (closing the account), chosen by ?tabId=N. */
export default function ProfilePage() {
  const { clientId } = useOrganizationContext();
  // Closing the account (Privacy) signs out while this page is still shown: for that moment, nothing.
  const user = useCurrentUser();
  const { t } = useTranslation('account');
  const [search, setSearch] = useSearchParams();
  const location = useLocation();
  const requested = Number(search.get('tabId') ?? 0);
  const tab = Number.isInteger(requested) && requested >= 0 && requested < TABS.length ? requested : 0;
  const notice = (location.state as ProfileNotice | null)?.notice;

  if (!user) return null;
  return (
    <HubPage pageTitle={t('profile.pageTitle')} title={t('profile.title')} maxWidth={880}>
      <AvatarEditor user={user} />
      <Paper variant="outlined" sx={{ mt: 3, borderRadius: 3, overflow: 'hidden' }}>
        <Tabs
          value={tab}
          onChange={(_event, value: number) => setSearch(value ? { tabId: String(value) } : {}, { replace: true })}
          variant="scrollable"
          scrollButtons="auto"
          allowScrollButtonsMobile
          aria-label={t('profile.tabsLabel')}
          sx={{ borderBottom: 1, borderColor: 'divider' }}
        >
          {TABS.map((name, index) => (
            <Tab key={name} label={t(`profile.tabs.${name}`)} id={`profile-tab-${index}`} aria-controls={`profile-panel-${index}`} />
          ))}
        </Tabs>
        <Box role="tabpanel" id={`profile-panel-${tab}`} aria-labelledby={`profile-tab-${tab}`} sx={{ p: { xs: 2, sm: 4 } }}>
          {tab === 0 && <PersonalInfoTab user={user} />}
          {tab === 1 && <PasswordTab email={user.email} />}
          {tab === 2 && <PreferencesTab user={user} />}
          {tab === 3 && <SecurityTab user={user} clientId={clientId} mfaJustEnabled={notice === 'mfaEnabled'} />}
          {tab === 4 && <PrivacyTab user={user} clientId={clientId} />}
        </Box>
      </Paper>
    </HubPage>
  );
}
