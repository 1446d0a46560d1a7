import type { PatientDataArea } from './patient-data';
/**
 * The features of the hub, declared once. The server keeps this catalogue in its `features`
 * table (synced at start) with a status per organisation; the web app's navigation, pages and
 * dashboard widgets refer to these keys. A new feature is one entry here, plus its pages and
 * routes registered under its key: the drawer, the status switches, the 403 of its API and
 * the redirect of its pages follow.
 */

export const FEATURE_STATUSES = ['active', 'inactive', 'disabled'] as const;
export type FeatureStatus = (typeof FEATURE_STATUSES)[number];

export interface FeatureDefinition {
  /** Stable identifier, used in code and in the catalogue. */
  key: string;
  /** The page it opens, under /{clientId}/ (null: an action or an external link). */
  route: string | null;
  /** The catalogue's display name (English; the apps show the localised name from the `features` catalog). */
  displayName: string;
  /** A Material icon name. */
  icon: string;
  /** One of the eight features the specification names as built in. */
  builtIn?: boolean;
  /**
   * Its page exists in this version. A feature that is not available yet is shown as
   * "Coming Soon!" whatever its status, never as a link to an empty page.
   */
  available: boolean;
  /** Always on: an organisation cannot turn it off (the dashboard, account settings, signing out). */
  core?: boolean;
  /** Only super admins see it. */
  superadminOnly?: boolean;
  /**
   * The part of the viewed patient's record its page shows (patient-data.ts): while someone
   * else's record is open, the menu offers it only when their grant reaches that area.
   */
  area?: PatientDataArea;
  /**
   * Features whose pages are one tool (the symptom checker and the Self-Diagnosis item) share
   * it: the menu offers the tool once, however many of them are on.
   */
  tool?: string;
}

export const FEATURES = [
  // The built-in list of the specification
  { key: 'dashboard', route: 'dashboard', displayName: 'Dashboard', icon: 'Dashboard', builtIn: true, available: true, core: true },
  { key: 'health-records', route: 'health-record', displayName: 'Health Records', icon: 'MonitorHeart', builtIn: true, available: true },
  { key: 'calendar', route: 'calendar', displayName: 'Calendar', icon: 'CalendarMonth', builtIn: true, available: true, area: 'calendar' },
  { key: 'careclub', route: 'careclub', displayName: 'CareClub+', icon: 'Groups', builtIn: true, available: true },
  { key: 'journal', route: 'journal', displayName: 'Journal', icon: 'MenuBook', builtIn: true, available: true, area: 'journal' },
  { key: 'document-center', route: 'health-vault', displayName: 'Document Center', icon: 'FolderShared', builtIn: true, available: true, area: 'documents' },
  { key: 'insurance', route: 'insurance', displayName: 'Insurance', icon: 'HealthAndSafety', builtIn: true, available: true, area: 'insurance' },
  { key: 'connection-hub', route: 'connection-hub', displayName: 'Connection Hub', icon: 'Hub', builtIn: true, available: true },
  // The other items of the navigation menu
  { key: 'teleconsultation', route: 'health-help/telehealth', displayName: 'Teleconsultation', icon: 'VideoCall', available: true, area: 'appointments' },
  { key: 'call-center-triage', route: 'call-center', displayName: 'Call Center Triage', icon: 'SupportAgent', available: false },
  { key: 'file-library', route: 'library', displayName: 'File Library', icon: 'LibraryBooks', available: false },
  { key: 'videos', route: null, displayName: 'Videos', icon: 'OndemandVideo', available: true },
  { key: 'medical-history', route: 'health-record/condition', displayName: 'Medical History', icon: 'History', available: true },
  { key: 'diagnostic-tests', route: 'health-record/lab', displayName: 'Diagnostic Tests', icon: 'Biotech', available: true },
  { key: 'medications', route: 'health-record/medication', displayName: 'Medications', icon: 'Medication', available: true },
  { key: 'allergies', route: 'health-record/allergy', displayName: 'Allergies', icon: 'Coronavirus', available: true },
  { key: 'family-history', route: 'health-record/familyhistory', displayName: 'Family History', icon: 'FamilyRestroom', available: true },
  { key: 'visits', route: 'health-record/medicalvisit', displayName: 'Visits', icon: 'LocalHospital', available: true },
  { key: 'symptom-checker', route: 'symptom-checker', displayName: 'Symptom Checker', icon: 'Healing', available: true, tool: 'symptom-checker' },
  { key: 'personal-notes', route: 'journal/notes', displayName: 'Personal notes', icon: 'StickyNote2', available: false },
  { key: 'emergency', route: 'emergency', displayName: 'Emergency', icon: 'Emergency', available: true },
  { key: 'medical-services', route: 'medical-services', displayName: 'Medical Services', icon: 'MedicalServices', available: false },
  { key: 'live-help', route: 'peer-coaching', displayName: 'Live Help', icon: 'Forum', available: true, area: 'chat' },
  { key: 'health-concierge', route: 'health-concierge', displayName: 'Health Concierge', icon: 'RoomService', available: false },
  { key: 'medical-transportation', route: 'medical-transportation', displayName: 'Medical Transportation', icon: 'AirportShuttle', available: false },
  { key: 'self-diagnosis', route: 'health-check', displayName: 'Self-Diagnosis', icon: 'FactCheck', available: true, tool: 'symptom-checker' },
  { key: 'schedule-appointment', route: 'telehealth/provider-list', displayName: 'Schedule appointment', icon: 'EventAvailable', available: true, area: 'appointments' },
  { key: 'care-team', route: 'careclub/care-team', displayName: 'View care team', icon: 'Diversity3', available: false },
  { key: 'provider-search', route: 'provider-details', displayName: 'Search for provider', icon: 'PersonSearch', available: true },
  { key: 'urgent-care', route: 'urgent-care', displayName: 'Find urgent care', icon: 'LocalPharmacy', available: false },
  { key: 'share-record', route: 'sharing', displayName: 'Share my record', icon: 'Share', available: true, area: 'shares' },
  { key: 'link-accounts', route: 'connection-hub', displayName: 'Link my accounts', icon: 'Link', available: true },
  { key: 'personal-info', route: 'settings/profile?tabId=0', displayName: 'Personal info', icon: 'Person', available: true, core: true },
  { key: 'security', route: 'settings/profile?tabId=3', displayName: 'Security', icon: 'Security', available: true, core: true },
  { key: 'privacy', route: 'privacy', displayName: 'Privacy', icon: 'PrivacyTip', available: true, core: true },
  { key: 'sign-out', route: 'safeHavenLogout', displayName: 'Sign out', icon: 'Logout', available: true, core: true },
  { key: 'reminders', route: null, displayName: 'Reminders', icon: 'NotificationsActive', available: true, area: 'calendar' },
  { key: 'help', route: 'healthhelp', displayName: 'Help', icon: 'HelpCenter', available: true },
  { key: 'surveys', route: 'mental-health-survey', displayName: 'Mental health surveys', icon: 'Psychology', available: true, area: 'assessments' },
  // The assistant widget: a floating button on signed-in pages (no page of its own, not in the menu).
  { key: 'assistant', route: null, displayName: 'Help assistant', icon: 'TipsAndUpdates', available: true },
  { key: 'operations', route: 'operations', displayName: 'Operations', icon: 'Insights', available: true, core: true, superadminOnly: true },
] as const satisfies readonly FeatureDefinition[];

export type FeatureKey = (typeof FEATURES)[number]['key'];

const AREAS = new Map<string, PatientDataArea>((FEATURES as readonly FeatureDefinition[]).flatMap((f) => (f.area ? [[f.key, f.area] as const] : [])));
/** The part of a patient's record a feature's page shows, if any (what a grant must reach to be offered it). */
export const featureArea = (key: string): PatientDataArea | undefined => AREAS.get(key);

/** The tool a feature's page is (features that open the same one share it): its own key unless declared. */
export const featureTool = (key: string): string => (BY_KEY.get(key)?.tool ?? key);

const BY_KEY = new Map<string, FeatureDefinition>(FEATURES.map((f) => [f.key, f]));
export const featureDefinition = (key: string): FeatureDefinition | undefined => BY_KEY.get(key);

/**
 * What a member of the organisation gets: a feature whose page does not exist yet is at most
 * "inactive" (Coming Soon!), a core feature is always active, otherwise the organisation's status.
 */
export function effectiveStatus(definition: Pick<FeatureDefinition, 'available' | 'core'>, configured: FeatureStatus): FeatureStatus {
  if (definition.core) return definition.available ? 'active' : 'inactive';
  if (configured === 'disabled') return 'disabled';
  return definition.available ? configured : 'inactive';
}
