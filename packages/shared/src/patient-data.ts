/**
 * What a person let into a patient's record may reach of it: the one statement of the rules,
 * read by the server's patients policy (which enforces them) and by the web app (which hides
 * what would be refused). Every part of a patient's data is an *area*; every table that holds a
 * patient's data belongs to exactly one area (the server declares which, and a test holds every
 * table with a patient_id to it).
 *
 * - Access: `owner` (the patient), `full` or `read-only` (the care network, a family member's
 *   manager), and a share's verified `recipient` (reads what the share names, nothing else).
 * - A grant limited to some record categories reaches those categories (records and the
 *   documents attached to them) and nothing else of the record.
 * - A read-only grant reads but never writes, never chats, and never sees share recipients'
 *   addresses or access logs, nor mental-health assessments.
 * - Private ("for my eyes only") rows are the owner's alone, and only the owner marks them.
 */

export type PatientAccessLevel = 'owner' | 'full' | 'read-only';

/**
 * The `code` of a 403 whose reason is the access level or the grant's categories (with `area`
 * and the area's refusal as `detail`): the web app explains it in place of the page.
 */
export const RECORD_ACCESS_REFUSED = 'record_access_refused';

export const PATIENT_DATA_AREAS = ['profile', 'records', 'documents', 'journal', 'insurance', 'calendar', 'appointments', 'chat', 'assessments', 'shares', 'connections'] as const;
export type PatientDataArea = (typeof PATIENT_DATA_AREAS)[number];

export interface AreaRule {
  /** Who reads the area: anyone let in, or only those who may also write (owner and full access). */
  readonly read: 'any' | 'write-access';
  /** A grant limited to some categories: reaches the area's rows of those categories, or nothing of it. */
  readonly limited: 'by-category' | 'none' | 'whole';
  /** The refusal's message key (errors namespace) when the access level does not reach the area. */
  readonly refusal: string;
  /** The refusal's message key for a write by someone who reads only. */
  readonly writeRefusal: string;
}

const rule = (read: AreaRule['read'], limited: AreaRule['limited'], refusal = 'areaNotShared', writeRefusal = 'readOnlyAccess'): AreaRule => ({ read, limited, refusal, writeRefusal });

/** Each area's rule: the data the matrix test, the policy and the web app read alike. */
export const AREA_RULES: Readonly<Record<PatientDataArea, AreaRule>> = {
  // Who the patient is (names, date of birth): whoever is let in at all.
  profile: rule('any', 'whole'),
  records: rule('any', 'by-category'),
  // A document reached through the record it is attached to; a loose document is of no category.
  documents: rule('any', 'by-category'),
  journal: rule('any', 'none'),
  insurance: rule('any', 'none'),
  calendar: rule('any', 'none'),
  appointments: rule('any', 'none'),
  // Transcripts and files are read by anyone let in; chatting is a write that read-only never has.
  chat: rule('any', 'none', 'areaNotShared', 'chatReadOnly'),
  assessments: rule('write-access', 'none', 'assessmentsNotShared', 'assessmentsNotShared'),
  // The share list and each share's access log carry recipients' addresses and browsers.
  shares: rule('write-access', 'none', 'sharesNotShared'),
  // The providers whose records flow in: connecting one lets records into the whole record, so
  // only those who may write all of it manage them (and read where they come from).
  connections: rule('write-access', 'none', 'connectionsNotShared', 'connectionsNotShared'),
};

export interface PatientGrantShape {
  readonly access: PatientAccessLevel;
  /** The record categories a grant is limited to; null for every one (and for the owner). */
  readonly categories: readonly string[] | null;
}

/** Whether a grant reaches an area at all (to read). */
export function reachesArea(grant: PatientGrantShape, area: PatientDataArea): boolean {
  if (grant.access === 'owner') return true;
  const r = AREA_RULES[area];
  if (r.read === 'write-access' && grant.access !== 'full') return false;
  if (grant.categories !== null && r.limited === 'none') return false;
  return true;
}

/** Whether a grant may change an area (it reaches it, and its level writes). */
export const writesArea = (grant: PatientGrantShape, area: PatientDataArea): boolean => reachesArea(grant, area) && (grant.access === 'owner' || grant.access === 'full');

/** Whether a grant reaches a record category (and what hangs on its records). */
export const reachesCategory = (grant: Pick<PatientGrantShape, 'categories'>, category: string): boolean => grant.categories === null || grant.categories.includes(category);

/** Private rows: seen and marked by the owner only. */
export const seesPrivate = (grant: Pick<PatientGrantShape, 'access'>): boolean => grant.access === 'owner';

/** What a grant may do, area by area: the rights the web app shows. */
export interface PatientRights {
  readonly reads: Readonly<Record<PatientDataArea, boolean>>;
  readonly writes: Readonly<Record<PatientDataArea, boolean>>;
  readonly seesPrivate: boolean;
}

export function rightsOf(grant: PatientGrantShape): PatientRights {
  const reads = Object.fromEntries(PATIENT_DATA_AREAS.map((a) => [a, reachesArea(grant, a)])) as Record<PatientDataArea, boolean>;
  const writes = Object.fromEntries(PATIENT_DATA_AREAS.map((a) => [a, writesArea(grant, a)])) as Record<PatientDataArea, boolean>;
  return { reads, writes, seesPrivate: seesPrivate(grant) };
}
