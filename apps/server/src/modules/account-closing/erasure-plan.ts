import { PATIENT_TABLES } from '../patients/patient-tables';

/**
 * How a table's rows of a patient are found: by a column holding the patient's id, or (a table
 * reached through another) by a column pointing at the parent table's rows of the patient.
 */
export type ErasureMatch = { column: string } | { column: string; parent: string };

export interface TableErasure {
  table: string;
  /** Any of these finds a row of the patients being erased. */
  match: readonly ErasureMatch[];
  /** A column holding the closing account's user id: its rows go too (the account's side of the table). */
  user?: string;
  /** Columns holding storage keys: the files are removed after the transaction commits. */
  files?: readonly string[];
}

/**
 * The erasure of a patient, as data: every table of PATIENT_TABLES, in the order the rows can
 * go (a child before its parent; documents before their folders). The account's own tables
 * (sessions, tokens, second factors, links, answers, feeds, tickets) go with the users row, by
 * their foreign keys (on delete cascade). `uncoveredPatientTables()` names any declared patient
 * table this plan forgets: the eraser refuses to run then, and a test fails.
 */
export const ERASURE_PLAN: readonly TableErasure[] = [
  { table: 'health_record_versions', match: [{ column: 'record_id', parent: 'health_records' }] },
  { table: 'share_accesses', match: [{ column: 'share_id', parent: 'shares' }] },
  { table: 'share_sessions', match: [{ column: 'share_id', parent: 'shares' }] },
  { table: 'chat_messages', match: [{ column: 'conversation_id', parent: 'chat_conversations' }], files: ['file_key'] },
  {
    table: 'reminders',
    match: [
      { column: 'event_id', parent: 'calendar_events' },
      { column: 'appointment_id', parent: 'appointments' },
    ],
    user: 'user_id',
  },
  { table: 'documents', match: [{ column: 'patient_id' }], files: ['storage_key'] },
  { table: 'document_folders', match: [{ column: 'patient_id' }] },
  { table: 'health_records', match: [{ column: 'patient_id' }] },
  { table: 'journal_entries', match: [{ column: 'patient_id' }] },
  { table: 'insurance_cards', match: [{ column: 'patient_id' }], files: ['front_key', 'back_key'] },
  { table: 'calendar_events', match: [{ column: 'patient_id' }] },
  // Before appointments: a video visit's chat points at its appointment (migration 0040).
  { table: 'chat_conversations', match: [{ column: 'patient_id' }], user: 'patient_user_id' },
  { table: 'visits', match: [{ column: 'patient_id' }] },
  { table: 'appointments', match: [{ column: 'patient_id' }] },
  { table: 'survey_responses', match: [{ column: 'patient_id' }] },
  { table: 'shares', match: [{ column: 'patient_id' }] },
  { table: 'exports', match: [{ column: 'patient_id' }], user: 'user_id', files: ['storage_key'] },
  { table: 'apple_health_imports', match: [{ column: 'patient_id' }] },
  { table: 'source_launches', match: [{ column: 'patient_id' }], user: 'user_id' },
  { table: 'source_connections', match: [{ column: 'patient_id' }] },
  { table: 'patient_grants', match: [{ column: 'patient_id' }], user: 'grantee_user_id' },
  { table: 'invitations', match: [{ column: 'patient_id' }], user: 'user_id' },
  { table: 'patients', match: [{ column: 'id' }] },
];

/** The declared patient tables the plan does not erase (should be none). */
export function uncoveredPatientTables(plan: readonly TableErasure[] = ERASURE_PLAN): string[] {
  const covered = new Set(plan.map((step) => step.table));
  return Object.keys(PATIENT_TABLES).filter((table) => !covered.has(table));
}
