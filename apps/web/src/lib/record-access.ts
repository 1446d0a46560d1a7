import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Patient } from '@healthbook/shared/contracts/records';
import { AREA_RULES, PATIENT_DATA_AREAS, RECORD_ACCESS_REFUSED, rightsOf, type PatientDataArea } from '@healthbook/shared/patient-data';
import { api, ApiError } from './api-client';
import { queryKeys } from './query-keys';
import { useViewingPatientId } from './viewing-patient';

/** GET /api/v1/patients/: the user's own record first, then those they were let into (care network, family members). */
export const listPatients = async () => {
  const list = await api.get<Patient[]>('/api/v1/patients/');
  return Array.isArray(list) ? list : [];
};

export const patientsQueryOptions = () => queryOptions({ queryKey: queryKeys.patients.list(), queryFn: listPatients, staleTime: 30_000 });

/** How often the list is asked again while another's record is open: a removal shows within this time (ms). */
export const ACCESS_POLL_MS = 15_000;

/** What the signed-in user may do with the record this tab shows: the one answer every page asks. */
export interface RecordAccess {
  /** The patient being viewed (null: the user's own record). */
  viewing: number | null;
  /** That patient as the server lists it; null on one's own record or while the list loads. */
  patient: Patient | null;
  /** null while not known yet (the list is loading). */
  access: Patient['access'] | null;
  /** Another's record is open (care network, a family member). */
  viewingOther: boolean;
  /** Add, change and delete: records, documents, calendar, journal, insurance; book and cancel. */
  canWrite: boolean;
  /** Chat with providers and start telehealth: read-only individuals cannot communicate with providers (the Terms). */
  canChat: boolean;
  /** Mark things private ("for my eyes only"): only the patient themselves. */
  canSeePrivate: boolean;
  /** Access is known to be read-only: a page says so where its main action is missing. */
  readOnly: boolean;
  /** Area by area, what the user may read and change: the server's own rules (packages/shared patient-data.ts). */
  reads: Readonly<Record<PatientDataArea, boolean>>;
  writes: Readonly<Record<PatientDataArea, boolean>>;
}

/**
 * The rights of an access level and a grant's categories, from the same rules the server's
 * patients policy applies (the server enforces; this only hides what would be refused). While
 * the level is not known yet, nothing is readable or writable.
 */
export function accessRights(access: Patient['access'] | null, categories: readonly string[] | null = null): Pick<RecordAccess, 'canWrite' | 'canChat' | 'canSeePrivate' | 'readOnly' | 'reads' | 'writes'> {
  const rights = access ? rightsOf({ access, categories }) : rightsOf({ access: 'read-only', categories: [] });
  const known = access !== null;
  const none = Object.fromEntries(Object.keys(rights.reads).map((a) => [a, false])) as Record<PatientDataArea, boolean>;
  return {
    canWrite: known && rights.writes.records,
    canChat: known && rights.writes.chat,
    canSeePrivate: known && rights.seesPrivate,
    readOnly: access === 'read-only',
    reads: known ? rights.reads : none,
    writes: known ? rights.writes : none,
  };
}

const OWN: RecordAccess = { viewing: null, patient: null, access: 'owner', viewingOther: false, ...accessRights('owner') };

/**
 * The one hook the features use to hide or disable their write controls: what the user may do
 * with the record this tab views. It reads the list of records (kept current by the shell's
 * poll), so a change of access (read-only ↔ full) shows at once. While the list loads on
 * another's record, nothing is writable.
 */
export function useRecordAccess(): RecordAccess {
  const viewing = useViewingPatientId();
  const list = useQuery({ ...patientsQueryOptions(), enabled: viewing !== null });
  if (viewing === null) return OWN;
  const patient = list.data?.find((p) => p.patient_id === viewing) ?? null;
  const access = patient?.access ?? null;
  if (access === 'owner') return { ...OWN, viewing, patient };
  return { viewing, patient, access, viewingOther: true, ...accessRights(access, patient?.categories ?? null) };
}

/** The families of cached data that do not depend on whose record is viewed: kept when switching. */
const KEPT = new Set<string>([
  queryKeys.organizations.all[0],
  queryKeys.users.all[0],
  queryKeys.wizard.all[0],
  queryKeys.profileQuestions.all[0],
  queryKeys.welcomeMessages.all[0],
  queryKeys.features.all[0],
  queryKeys.operations.all[0],
  queryKeys.help.all[0],
  queryKeys.symptomChecker.all[0],
  queryKeys.providerConsole.all[0],
  queryKeys.chatConsole.all[0],
  queryKeys.patients.all[0],
  // A provider's callback is answered once (its state works once): never sent again.
  queryKeys.sourceCallback.all[0],
]);

/**
 * After the viewed record changed: every cached answer about a patient is dropped (the pages
 * still open fetch theirs again, now for the other record); the session's, the organisation's,
 * the user's and the features' data stay. The list of records is asked again.
 */
export async function resetRecordData(client: QueryClient): Promise<void> {
  await client.cancelQueries({ predicate: (q) => !KEPT.has(String(q.queryKey[0])) });
  client.removeQueries({ predicate: (q) => !KEPT.has(String(q.queryKey[0])) && q.getObserversCount() === 0 });
  await Promise.all([
    client.resetQueries({ predicate: (q) => !KEPT.has(String(q.queryKey[0])) }),
    client.invalidateQueries({ queryKey: queryKeys.patients.all }),
  ]);
}

/** A patient's name as the banner and the switcher say it. */
export const patientName = (p: Pick<Patient, 'first_name' | 'last_name'>) => `${p.first_name} ${p.last_name}`.trim();

/**
 * A refusal because of the access one holds to the viewed record (read-only, some categories
 * only): the server's 403 with code record_access_refused, or a page's guard that refused the
 * same way. Answers the area and the reason to show (the server's words, or the area's rule), or
 * null for any other error. The one place that tells this kind of refusal from a failure.
 */
export function accessRefusal(error: unknown): { area: PatientDataArea | null; message: string | null; messageKey: string | null } | null {
  const data = error instanceof ApiError ? error.data : isRouteRefusal(error) ? error.data : null;
  if (!data || typeof data !== 'object' || (data as { code?: unknown }).code !== RECORD_ACCESS_REFUSED) return null;
  if (error instanceof ApiError && error.status !== 403) return null;
  const area = (data as { area?: unknown }).area;
  const known = typeof area === 'string' && (PATIENT_DATA_AREAS as readonly string[]).includes(area) ? (area as PatientDataArea) : null;
  const detail = (data as { detail?: unknown }).detail;
  return {
    area: known,
    message: typeof detail === 'string' ? detail : null,
    messageKey: known ? `errors:${AREA_RULES[known].refusal}` : null,
  };
}

/** What a guard throws for a page the viewed record's access does not reach (react-router's data(…, 403)). */
export const refusalData = (area: PatientDataArea) => ({ code: RECORD_ACCESS_REFUSED, area });

function isRouteRefusal(error: unknown): error is { status: number; data: unknown } {
  return typeof error === 'object' && error !== null && (error as { status?: unknown }).status === 403 && 'data' in error && !(error instanceof ApiError);
}
