import type { PatientDataArea } from '@healthbook/shared';

/**
 * Every table that holds a patient's data, declared once with the area it belongs to (and so
 * its rule for a limited or read-only grant: AREA_RULES in packages/shared patient-data.ts).
 * A table reached only through another (a record's versions, a chat's messages) names it. A
 * table with a patient_id that is not the patient's health data says why. The grant matrix test
 * holds every table with a patient_id column of the database to this list, so a new table
 * cannot be left out of the rules.
 */
export type PatientTable = { area: PatientDataArea; through?: string } | { area: null; why: string };

export const PATIENT_TABLES: Readonly<Record<string, PatientTable>> = {
  patients: { area: 'profile' },
  health_records: { area: 'records' },
  health_record_versions: { area: 'records', through: 'health_records' },
  documents: { area: 'documents' },
  document_folders: { area: 'documents' },
  journal_entries: { area: 'journal' },
  insurance_cards: { area: 'insurance' },
  calendar_events: { area: 'calendar' },
  reminders: { area: 'calendar', through: 'calendar_events' },
  appointments: { area: 'appointments' },
  visits: { area: 'appointments', through: 'appointments' },
  chat_conversations: { area: 'chat' },
  chat_messages: { area: 'chat', through: 'chat_conversations' },
  survey_responses: { area: 'assessments' },
  shares: { area: 'shares' },
  share_accesses: { area: 'shares', through: 'shares' },
  share_sessions: { area: 'shares', through: 'shares' },
  exports: { area: 'records' },
  apple_health_imports: { area: 'records' },
  source_connections: { area: 'connections' },
  source_launches: { area: 'connections' },
  patient_grants: { area: null, why: 'who is let into the record: the policy reads it; the patient manages it as their own account' },
  invitations: { area: null, why: 'a sign-up code that gives a family member their own account (no health data)' },
};
