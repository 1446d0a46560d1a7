import { featureTool, type FeatureKey } from '@healthbook/shared/features';

/**
 * The side navigation of the spec (§2 "Navigation menu groups"), as data: each item opens a
 * feature of the catalogue (packages/shared/src/features.ts), which decides its page, icon and
 * name; the organisation's status decides whether it is shown, "Coming Soon!" or hidden.
 */
export interface NavItem {
  feature: FeatureKey;
  /** A label of the `nav` catalog when the menu names it otherwise than the catalogue ("Interactive Calendar"). */
  label?: string;
  /** Another feature whose page the item opens: unless that one is active too, the item is "Coming Soon!" (hidden when it is disabled). */
  requires?: FeatureKey;
  /** A page of the feature other than its own (its route under /{clientId}/), with its own icon. */
  route?: string;
  icon?: string;
}

export interface NavGroup {
  id: string;
  /** Key of the group title in the `nav` catalog (none: the first, untitled groups). */
  title?: string;
  items: NavItem[];
  /** Shown to administrators only (organisation admins and super admins). */
  adminOnly?: boolean;
  /** Shown to staff only (the provider console: providers, and peer coaches for the chat console). */
  staffOnly?: boolean;
}

export const NAV_GROUPS: readonly NavGroup[] = [
  {
    id: 'main',
    items: [{ feature: 'dashboard' }, { feature: 'teleconsultation' }, { feature: 'call-center-triage' }, { feature: 'file-library' }, { feature: 'careclub' }, { feature: 'videos' }],
  },
  {
    id: 'my-record',
    title: 'groups.myRecord',
    items: [
      { feature: 'health-records', label: 'items.recordDashboard' },
      { feature: 'medical-history' },
      { feature: 'diagnostic-tests' },
      { feature: 'medications' },
      { feature: 'allergies' },
      { feature: 'family-history' },
      { feature: 'journal' },
      { feature: 'visits' },
      { feature: 'document-center' },
    ],
  },
  {
    id: 'care',
    items: [
      { feature: 'symptom-checker' },
      { feature: 'personal-notes' },
      { feature: 'emergency' },
      { feature: 'medical-services' },
      { feature: 'live-help' },
      { feature: 'health-concierge' },
      { feature: 'medical-transportation' },
      { feature: 'self-diagnosis' },
      { feature: 'surveys' },
    ],
  },
  {
    id: 'ecosystem',
    title: 'groups.ecosystem',
    items: [{ feature: 'symptom-checker' }, { feature: 'schedule-appointment' }, { feature: 'care-team' }, { feature: 'provider-search' }, { feature: 'urgent-care' }],
  },
  {
    id: 'sharing',
    title: 'groups.sharing',
    items: [{ feature: 'share-record' }, { feature: 'link-accounts', requires: 'connection-hub' }, { feature: 'careclub', route: 'family-members', label: 'items.familyMembers', icon: 'FamilyRestroom' }],
  },
  {
    id: 'account',
    title: 'groups.account',
    items: [{ feature: 'personal-info' }, { feature: 'security' }, { feature: 'privacy' }, { feature: 'sign-out' }],
  },
  { id: 'calendar', title: 'groups.calendar', items: [{ feature: 'calendar', label: 'items.interactiveCalendar' }, { feature: 'reminders' }] },
  { id: 'insurance', title: 'groups.insurance', items: [{ feature: 'insurance' }] },
  { id: 'provider', title: 'groups.provider', staffOnly: true, items: [] },
  { id: 'admin', title: 'groups.admin', adminOnly: true, items: [{ feature: 'operations' }] },
];

/** What the menu knows of a shown item: whether it opens its page (active) or says "Coming Soon!". */
export interface ShownItem<E extends { feature_status: string }> {
  item: NavItem;
  entry: E;
}

/**
 * The menu as shown: the groups in order, a staff member's console groups first (they work
 * there), each item by what `visible` makes of it (null: not shown), and every tool once: of
 * the items that open the same tool (the symptom checker, Self-Diagnosis and the Ecosystem's
 * symptom checker), the first active one, in the place of the first shown.
 */
export function arrangeMenu<E extends { feature_status: string }>(
  groups: readonly NavGroup[],
  options: { staff: boolean; visible: (item: NavItem) => E | null },
): { group: NavGroup; items: ShownItem<E>[] }[] {
  const consoleFirst = options.staff ? [...groups.filter((g) => g.staffOnly || g.adminOnly), ...groups.filter((g) => !g.staffOnly && !g.adminOnly)] : groups;
  const shown = consoleFirst.map((group) => ({
    group,
    items: group.items.flatMap((item) => {
      const entry = options.visible(item);
      return entry ? [{ item, entry }] : [];
    }),
  }));
  // Each tool's one item: the first active, else the first shown; it takes the first one's place.
  const all = shown.flatMap((g) => g.items);
  const chosen = new Map<string, ShownItem<E>>();
  for (const candidate of all) {
    const tool = featureTool(candidate.item.route ? `${candidate.item.feature}:${candidate.item.route}` : candidate.item.feature);
    const current = chosen.get(tool);
    if (!current || (current.entry.feature_status !== 'active' && candidate.entry.feature_status === 'active')) chosen.set(tool, candidate);
  }
  const placed = new Set<string>();
  return shown.map(({ group, items }) => ({
    group,
    items: items.flatMap((candidate) => {
      const tool = featureTool(candidate.item.route ? `${candidate.item.feature}:${candidate.item.route}` : candidate.item.feature);
      if (placed.has(tool)) return [];
      placed.add(tool);
      return [chosen.get(tool)!];
    }),
  }));
}
