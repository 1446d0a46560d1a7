import type { SurveyDefinition } from '@healthbook/shared';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface OrganizationsTable {
  id: Generated<number>;
  /** The client id used in paths, lower case and unique. */
  name: string;
  org_name: string;
  org_short_name: string;
  primary_color: string | null;
  logo_key: string | null;
  logo_content_type: string | null;
  favicon_key: string | null;
  favicon_content_type: string | null;
  /** The organisation's external video channel (the menu's Videos item); null hides the item. */
  video_channel_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The emergency number its patients call (default 112). */
  emergency_number: ColumnType<string, string | undefined, string>;
  /** Crisis lines, shown first by the surveys' safety path and by the symptom checker. */
  crisis_lines: ColumnType<CrisisLineRow[], string | undefined, string>;
  /** The help area's contact details; the contact form writes to support_email. */
  support_email: ColumnType<string | null, string | null | undefined, string | null>;
  support_phone: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set while a super admin has deactivated the organisation (its members cannot sign in). */
  deactivated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CrisisLineRow {
  number: string;
  name_en: string;
  name_el: string;
}

export interface UsersTable {
  id: Generated<number>;
  org_id: number;
  email: string;
  /** null: no password yet (an account made by an operator or administrator, until its set-password link is used). */
  password_hash: string | null;
  first_name: string;
  last_name: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  is_superadmin: Generated<boolean>;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  dob: ColumnType<string | null, string | null | undefined, string | null>;
  gender: string | null;
  sex: string | null;
  credential: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zip_code: string | null;
  phone_number: string | null;
  imperial_units: Generated<boolean>;
  avatar_key: string | null;
  avatar_content_type: string | null;
  settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  wizard_steps: ColumnType<string[], string[] | undefined, string[]>;
  wizard_complete: Generated<boolean>;
  email_confirmed_at: NullableTimestamp;
  password_changed_at: NullableTimestamp;
  /** Staff an administrator invited (migration 0028): invited until they set a password. */
  invited_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** Files of the message (base64), for mail kept without SMTP. */
  attachments: ColumnType<MailAttachmentRow[] | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

export interface InvitationsTable {
  id: Generated<number>;
  org_id: number;
  first_name: string;
  last_name: string;
  dob: ColumnType<string, string, string>;
  gender: string;
  email: string;
  code_hash: string;
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  user_id: number | null;
  /** The patient (a family member without an account) the account made with this invitation becomes. */
  patient_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UserTokensTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  purpose: 'confirm_email' | 'reset_password' | 'change_email' | 'account_setup';
  /** change_email: the address the link confirms. */
  new_email: string | null;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface SessionsTable {
  id: string;
  user_id: number;
  org_id: number;
  access: 'full' | 'limited';
  refresh_jti: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
}

export interface MfaDevicesTable {
  uuid: string;
  org_id: number;
  user_id: number;
  device_type: 'email' | 'google';
  secret_enc: string | null;
  confirmed: Generated<boolean>;
  last_used_step: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
}

export interface MfaCodesTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  session_id: string | null;
  device_uuid: string | null;
  /** A code asked by linking accounts (connection hub): the account linking. */
  link_from_user_id: number | null;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_user_id: number | null;
  org_id: number | null;
  ip: string | null;
  action: string;
  outcome: 'success' | 'failure' | 'denied';
  subject: string | null;
  detail: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface ProfileQuestionsTable {
  id: Generated<number>;
  org_id: number | null;
  position: Generated<number>;
  question_type: 'text' | 'choice' | 'boolean';
  text_en: string;
  text_el: string;
  options: ColumnType<Array<{ key: string; en: string; el: string }>, string | undefined, string>;
}

export interface ProfileAnswersTable {
  org_id: number;
  user_id: number;
  question_id: number;
  answer: string;
  updated_at: Timestamp;
}

export interface WelcomeMessagesTable {
  id: Generated<number>;
  org_id: number | null;
  position: Generated<number>;
  title_en: string;
  title_el: string;
  message_en: string;
  message_el: string;
}

export interface AttemptCountersTable {
  scope: string;
  key: string;
  count: number;
  window_started_at: Timestamp;
}

export interface FeaturesTable {
  id: Generated<number>;
  key: string;
  feature_route: string | null;
  display_name: string;
  icon_name: string;
  position: Generated<number>;
}

export interface OrganizationFeaturesTable {
  org_id: number;
  feature_id: number;
  status: 'active' | 'inactive' | 'disabled';
  updated_at: Timestamp;
  updated_by: number | null;
}

export interface OperationsTable {
  id: Generated<number>;
  org_id: number;
  user_id: number | null;
  feature_id: number;
  at: Timestamp;
}

export interface PatientsTable {
  id: Generated<number>;
  org_id: number;
  /** The account that is this patient (its own record); null for a patient without an account. */
  user_id: number | null;
  first_name: string | null;
  last_name: string | null;
  dob: ColumnType<string | null, string | null | undefined, string | null>;
  gender: string | null;
  created_at: Timestamp;
  /** Moves on with every change of the patient's records and documents (a database trigger); answers are cached under it. */
  data_version: ColumnType<string | number | bigint, never, never>;
}

/** A category's values, by API field name. */
export type RecordData = Record<string, string | number | boolean | null>;

export interface HealthRecordsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  category: string;
  data: ColumnType<RecordData, string, string>;
  private: Generated<boolean>;
  sort_date: ColumnType<string | null, string | null | undefined, string | null>;
  search_text: Generated<string>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: number | null;
  updated_by: number | null;
  /** The resource an imported record was made from (migration 0013); null for a record typed in. */
  source_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** A record a sync brought (migration 0037): its source, the resource (`Type/id`) and version, when fetched, when seen gone. */
  source_id: ColumnType<number | null, number | null | undefined, number | null>;
  source_resource: ColumnType<string | null, string | null | undefined, string | null>;
  source_version: ColumnType<string | null, string | null | undefined, string | null>;
  source_fetched_at: NullableTimestamp;
  source_deleted_at: NullableTimestamp;
}

export interface HealthRecordVersionsTable {
  id: Generated<string>;
  record_id: number;
  org_id: number;
  version: number;
  action: 'create' | 'update';
  data: ColumnType<RecordData, string, string>;
  changes: ColumnType<Array<{ field: string; from: unknown; to: unknown }>, string, string>;
  changed_by: number | null;
  changed_at: Timestamp;
}

export interface DocumentFoldersTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  name: string;
  created_at: Timestamp;
}

export interface DocumentsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  folder_id: number | null;
  record_id: number | null;
  origin: 'attachment' | 'document';
  file_name: string;
  content_type: string;
  size: number;
  storage_key: string;
  created_at: Timestamp;
  created_by: number | null;
  /** A file a connected source brought: the resource and attachment it came from (migration 0037). */
  source_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface InsuranceCardsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  insurer: string;
  plan: string | null;
  member_number: string;
  group_number: string | null;
  holder_name: string | null;
  holder_relationship: Generated<'self' | 'spouse' | 'parent' | 'other'>;
  valid_from: ColumnType<string | null, string | null | undefined, string | null>;
  valid_to: ColumnType<string | null, string | null | undefined, string | null>;
  front_key: string | null;
  front_content_type: string | null;
  back_key: string | null;
  back_content_type: string | null;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: number | null;
}

export interface PatientGrantsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  kind: Generated<'invitation' | 'dependant'>;
  grantee_user_id: number | null;
  invited_by: number | null;
  name: string;
  email: string | null;
  access: 'full' | 'read-only';
  /** null: every category; else the record categories the person may see. */
  categories: ColumnType<string[] | null, string | null | undefined, string | null>;
  status: Generated<'pending' | 'active' | 'revoked' | 'declined'>;
  token_hash: string | null;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  accepted_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  /** A family member's relation to the user who added them (null: not made by adding a family member). */
  relationship: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Two accounts of one person in two organisations (connection hub); user_a < user_b. */
export interface AccountLinksTable {
  id: Generated<number>;
  user_a: number;
  org_a: number;
  user_b: number;
  org_b: number;
  created_by: number | null;
  created_at: Generated<Date>;
}

/** A single-use, short-lived switch from one linked account to the other (hashed). */
export interface AccountLinkTokensTable {
  id: Generated<number>;
  link_id: number;
  token_hash: string;
  from_user_id: number;
  from_session_id: string | null;
  to_user_id: number;
  to_org_id: number;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

/** A browser (hashed device cookie) on which a linked account's second factor was passed. */
export interface AccountLinkDevicesTable {
  id: Generated<number>;
  device_hash: string;
  user_id: number;
  org_id: number;
  session_id: string | null;
  confirmed_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface MailAttachmentRow {
  filename: string;
  content_type: string;
  base64: string;
}

export interface CalendarEventsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  title: string;
  description: string | null;
  type: string;
  color: string;
  start_time: Date | string;
  end_time: Date | string;
  all_day: boolean;
  /** RRULE text (the event's start is its DTSTART, in `timezone`), or null. */
  recurrence: string | null;
  /** The end of the last occurrence; null: the series has no end. */
  series_end: Date | string | null;
  timezone: string;
  reminder_minutes: number | null;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Weekly hours of a provider: ISO weekday (1 Monday) and wall-clock times HH:MM. */
export interface WeeklyHoursRow {
  weekday: number;
  start: string;
  end: string;
}
export interface AvailabilityExceptionRow {
  date: string;
  start: string | null;
  end: string | null;
}

export interface ProvidersTable {
  user_id: number;
  org_id: number;
  speciality: string | null;
  /** The speciality in Greek, when the provider gives it too. */
  speciality_el: string | null;
  credentials: string | null;
  languages: ColumnType<string[], string[] | undefined, string[]>;
  biography: string | null;
  slot_minutes: ColumnType<number, number | undefined, number>;
  timezone: ColumnType<string, string | undefined, string>;
  weekly: ColumnType<WeeklyHoursRow[], string | undefined, string>;
  exceptions: ColumnType<AvailabilityExceptionRow[], string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AvailabilitySlotsTable {
  id: Generated<number>;
  org_id: number;
  provider_id: number;
  start_time: Date | string;
  end_time: Date | string;
  withdrawn: Generated<boolean>;
}

export interface AppointmentsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  provider_id: number;
  slot_id: number;
  start_time: Date | string;
  end_time: Date | string;
  reason_for_visit: string;
  status: ColumnType<'booked' | 'cancelled', 'booked' | 'cancelled' | undefined, 'booked' | 'cancelled'>;
  booked_by: number | null;
  cancelled_at: NullableTimestamp;
  cancelled_by: number | null;
  cancelled_by_provider: Generated<boolean>;
  cancellation_notes: string | null;
  created_at: Timestamp;
}

export type VisitStatus = 'waiting' | 'active' | 'ended';

export interface VisitsTable {
  id: Generated<number>;
  org_id: number;
  appointment_id: number;
  patient_id: number;
  provider_id: number;
  status: ColumnType<VisitStatus, VisitStatus | undefined, VisitStatus>;
  admitted_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  ended_by: number | null;
  end_reason: 'provider' | 'patient' | 'window' | null;
  extended_until: NullableTimestamp;
  /** The visit's note in the patient's record (migration 0041): its medical-visit record, null until written (or once the patient deleted it). */
  note_record_id: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ReminderStatus = 'pending' | 'sending' | 'sent' | 'cancelled' | 'missed' | 'failed';

export interface RemindersTable {
  id: Generated<string>;
  org_id: number;
  user_id: number;
  event_id: number | null;
  appointment_id: number | null;
  occurrence_start: Date | string;
  remind_at: Date | string;
  status: ColumnType<ReminderStatus, ReminderStatus | undefined, ReminderStatus>;
  attempts: Generated<number>;
  claimed_until: NullableTimestamp;
  sent_at: NullableTimestamp;
}

export interface CalendarFeedsTable {
  user_id: number;
  org_id: number;
  token_hash: string;
  created_at: Timestamp;
}

export interface SharesTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  created_by: number | null;
  uid: string;
  token_hash: string;
  kind: 'records' | 'documents';
  method: 'link' | 'qr';
  recipient_name: string;
  recipient_email: string;
  language: string;
  message: string | null;
  categories: string[];
  record_ids: number[];
  document_ids: number[];
  include_insurance: Generated<boolean>;
  passcode_hash: string | null;
  code_hash: string | null;
  code_expires_at: NullableTimestamp;
  failed_attempts: Generated<number>;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  first_opened_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface ShareSessionsTable {
  id: Generated<string>;
  share_id: number;
  token_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface ShareAccessesTable {
  id: Generated<string>;
  share_id: number;
  session_id: string | null;
  action: 'verified' | 'viewed' | 'pdf' | 'document';
  ip: string | null;
  user_agent: string | null;
  shown: ColumnType<{ categories: string[]; records: number; documents: number }, string, string>;
  opened_at: Timestamp;
}

export interface ExportsTable {
  id: Generated<number>;
  org_id: number;
  user_id: number;
  patient_id: number;
  token_hash: string;
  /** Null while the PDF is being made (or when it failed). */
  storage_key: string | null;
  records: number;
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  status: ColumnType<ExportStatus, ExportStatus | undefined, ExportStatus>;
  /** How far the PDF is, from 0 to 1. */
  progress: ColumnType<number, number | undefined, number>;
  /** Why it failed: a message key. */
  error: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export type ExportStatus = 'running' | 'done' | 'failed';

export interface OrganizationSurveysTable {
  org_id: number;
  survey: 'general' | 'profile-questionnaire';
  /** A shared SurveyDefinition. */
  definition: ColumnType<SurveyDefinition, string, string>;
  updated_at: Timestamp;
}

export interface SurveyResponsesTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  submitted_by: number | null;
  submitted_by_name: string;
  survey: string;
  attempt_id: string;
  /** item id → value chosen. */
  answers: ColumnType<Record<string, number>, string, string>;
  score: number;
  max_score: number;
  band: string;
  level: number;
  safety: boolean;
  next_survey: string | null;
  /** The definition as asked (both languages). */
  definition: ColumnType<SurveyDefinition, string, string>;
  created_at: Timestamp;
}

export interface JournalEntriesTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  /** YYYY-MM-DD (read as text). */
  entry_date: ColumnType<string, string, string>;
  title: string;
  text: Generated<string>;
  mood: number | null;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  private: Generated<boolean>;
  search_text: Generated<string>;
  created_by: number | null;
  updated_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ChatConversationsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  patient_user_id: number;
  provider_user_id: number | null;
  provider_type: 'coach' | 'provider';
  reason: string;
  language: Generated<string>;
  status: Generated<'queued' | 'active' | 'ended'>;
  queued_at: Generated<Date>;
  started_at: NullableTimestamp;
  ended_at: NullableTimestamp;
  ended_by: number | null;
  end_reason: 'patient' | 'provider' | 'timeout' | 'abandoned' | null;
  patient_seen_at: Generated<Date>;
  /** A video visit's chat: its appointment (migration 0040; one chat per appointment). Null for live help. */
  appointment_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  sender_user_id: number | null;
  sender_name: string;
  sender_role: 'patient' | 'staff';
  kind: 'text' | 'file' | 'greeting' | 'exit';
  body: string;
  content_type: string;
  file_key: string | null;
  file_name: string | null;
  file_size: number | null;
  client_message_id: string | null;
  created_at: Generated<Date>;
}

export interface ChatTicketsTable {
  ticket_hash: string;
  user_id: number;
  session_id: string;
  language: Generated<string>;
  created_at: Generated<Date>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
}

/** The help area's articles (migration 0018): org_id null for every organisation's. */
export interface HelpArticlesTable {
  id: Generated<number>;
  org_id: number | null;
  slug: string;
  position: Generated<number>;
  /** An organisation's row with a default article's slug and hidden = true hides that article for it. */
  hidden: Generated<boolean>;
  feature: string | null;
  tags: ColumnType<string[], string | undefined, string>;
  title_en: Generated<string>;
  title_el: Generated<string>;
  body_en: Generated<string>;
  body_el: Generated<string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A patient's closing of their account (migration 0030); after the erasure, a tombstone without personal data. */
export interface AccountClosingsTable {
  id: Generated<number>;
  org_id: number;
  user_id: number | null;
  pseudonym: string;
  status: ColumnType<'pending' | 'cancelled' | 'erased', 'pending' | 'cancelled' | 'erased' | undefined, 'pending' | 'cancelled' | 'erased'>;
  requested_at: Timestamp;
  erase_after: ColumnType<Date, Date | string, Date | string>;
  claimed_until: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  erased_at: NullableTimestamp;
  dependants: ColumnType<number, number | undefined, number>;
  erased_summary: ColumnType<Record<string, number> | null, string | null | undefined, string | null>;
}

/** The link of a share erased with its patient: answers "revoked" (migration 0030). */
export interface ErasedSharesTable {
  uid: string;
  token_hash: string;
  erased_at: Timestamp;
}

export interface PatientImportsTable {
  id: Generated<number>;
  org_id: number;
  created_by: number | null;
  file_name: string;
  file_sha256: string;
  status: ColumnType<'preview' | 'sending' | 'done', 'preview' | 'sending' | 'done' | undefined, 'preview' | 'sending' | 'done'>;
  total: number;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export type PatientImportRowStatus = 'invalid' | 'ready' | 'sending' | 'sent' | 'skipped' | 'failed';

export interface PatientImportRowsTable {
  id: Generated<number>;
  import_id: number;
  org_id: number;
  line: number;
  first_name: string;
  last_name: string;
  dob: string;
  gender: string;
  email: string;
  language: string;
  problems: ColumnType<Array<{ field: string; code: string }>, string | undefined, string>;
  status: PatientImportRowStatus;
  claimed_at: NullableTimestamp;
  invitation_id: number | null;
}

export interface PatientImportEmailsTable {
  org_id: number;
  email: string;
  import_id: number;
  created_at: Generated<Date>;
}

/** A SMART on FHIR source an organisation registered (migration 0037). */
export interface FhirSourcesTable {
  id: Generated<number>;
  org_id: number;
  name: string;
  fhir_base_url: string;
  client_id: string;
  /** A confidential client's secret, sealed (lib/crypto SecretBox); null for a public client. */
  client_secret_sealed: string | null;
  scopes: string;
  /** The source's `.well-known/smart-configuration` as it was read when last checked. */
  smart_configuration: ColumnType<Record<string, unknown>, string, string>;
  enabled: Generated<boolean>;
  checked_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: number | null;
}

export type SourceConnectionStatus = 'pending' | 'syncing' | 'up_to_date' | 'needs_reconnect' | 'failed' | 'disconnected';

/** What a sync run did, kept on its connection for the patient to read. */
export interface SyncRunSummary {
  full: boolean;
  added: number;
  updated: number;
  unchanged: number;
  deleted: number;
  documents: number;
  /** Resources read but not brought in, by resource type, with the reason's message key. */
  skipped: Array<{ type: string; count: number; reason: string; vars?: Record<string, string | number> }>;
  /** Resource types the source refused (403, 404, an OperationOutcome): skipped, the rest went on. */
  refused: Array<{ type: string; status: number }>;
  started_at: string;
  finished_at: string;
}

/** A patient's connection to a source (migration 0037): one per source, tokens sealed. */
export interface SourceConnectionsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  source_id: number;
  source_patient_id: string;
  access_token_sealed: string | null;
  refresh_token_sealed: string | null;
  token_expires_at: NullableTimestamp;
  scope: Generated<string>;
  status: ColumnType<SourceConnectionStatus, SourceConnectionStatus | undefined, SourceConnectionStatus>;
  /** Why it needs reconnecting or failed: a message key of the errors namespace. */
  problem: string | null;
  last_run: ColumnType<SyncRunSummary | null, string | null | undefined, string | null>;
  last_synced_at: NullableTimestamp;
  last_full_sync_at: NullableTimestamp;
  /** The source's own time when the last sync's searches began (its searchsets' meta.lastUpdated): the next `_lastUpdated=gt`. */
  since_cursor: string | null;
  next_sync_at: NullableTimestamp;
  claimed_until: NullableTimestamp;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A standalone launch between its redirect and its callback (migration 0037). */
export interface SourceLaunchesTable {
  state_hash: string;
  org_id: number;
  patient_id: number;
  source_id: number;
  user_id: number;
  verifier_sealed: string;
  redirect_uri: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
  created_at: Timestamp;
}

export type AppleHealthImportStatus = 'reading' | 'ready' | 'importing' | 'done' | 'failed';

/** An Apple Health export being imported (migration 0038). */
export interface AppleHealthImportsTable {
  id: Generated<number>;
  org_id: number;
  patient_id: number;
  created_by: number | null;
  file_name: string;
  thin: 'day' | 'none';
  time_zone: string;
  status: ColumnType<AppleHealthImportStatus, AppleHealthImportStatus | undefined, AppleHealthImportStatus>;
  progress_done: ColumnType<string, number | undefined, number>;
  progress_total: ColumnType<string, number | undefined, number>;
  error_code: string | null;
  counts: ColumnType<unknown, string | null | undefined, string | null>;
  clinical: ColumnType<unknown, string | null | undefined, string | null>;
  measurements: ColumnType<unknown, string | null | undefined, string | null>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  heartbeat_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  apple_health_imports: AppleHealthImportsTable;
  patient_imports: PatientImportsTable;
  patient_import_rows: PatientImportRowsTable;
  patient_import_emails: PatientImportEmailsTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  mail_outbox: MailOutboxTable;
  invitations: InvitationsTable;
  user_tokens: UserTokensTable;
  sessions: SessionsTable;
  mfa_devices: MfaDevicesTable;
  mfa_codes: MfaCodesTable;
  audit_log: AuditLogTable;
  profile_questions: ProfileQuestionsTable;
  profile_answers: ProfileAnswersTable;
  welcome_messages: WelcomeMessagesTable;
  attempt_counters: AttemptCountersTable;
  features: FeaturesTable;
  organization_features: OrganizationFeaturesTable;
  operations: OperationsTable;
  patients: PatientsTable;
  health_records: HealthRecordsTable;
  health_record_versions: HealthRecordVersionsTable;
  document_folders: DocumentFoldersTable;
  documents: DocumentsTable;
  calendar_events: CalendarEventsTable;
  providers: ProvidersTable;
  availability_slots: AvailabilitySlotsTable;
  appointments: AppointmentsTable;
  visits: VisitsTable;
  reminders: RemindersTable;
  calendar_feeds: CalendarFeedsTable;
  shares: SharesTable;
  share_sessions: ShareSessionsTable;
  share_accesses: ShareAccessesTable;
  exports: ExportsTable;
  chat_conversations: ChatConversationsTable;
  organization_surveys: OrganizationSurveysTable;
  survey_responses: SurveyResponsesTable;
  chat_messages: ChatMessagesTable;
  chat_tickets: ChatTicketsTable;
  help_articles: HelpArticlesTable;
  journal_entries: JournalEntriesTable;
  insurance_cards: InsuranceCardsTable;
  patient_grants: PatientGrantsTable;
  account_links: AccountLinksTable;
  account_link_tokens: AccountLinkTokensTable;
  account_link_devices: AccountLinkDevicesTable;
  account_closings: AccountClosingsTable;
  erased_shares: ErasedSharesTable;
  fhir_sources: FhirSourcesTable;
  source_connections: SourceConnectionsTable;
  source_launches: SourceLaunchesTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type OrganizationUpdate = Updateable<OrganizationsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
