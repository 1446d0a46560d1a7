import type { Language } from './constants';
import { translate } from './i18n';

/**
 * Every action the server writes to the audit trail, declared once: the server's AuditLog takes
 * only these (a new one is added here first), and each has a sentence in every language
 * (locales/<lang>/audit.json, `actions.<action>`), which "who saw my record" reads to the
 * patient. A test holds the catalogs to this list.
 */
export const AUDIT_ACTIONS = [
  // What others did with a patient's record (the patient's trail: "who saw my record")
  'patient_read',
  'patient_access',
  'record_read',
  'record_create',
  'record_update',
  'record_delete',
  'record_export',
  'record_export_open',
  'fhir_export',
  'fhir_import',
  'document_convert',
  'import_discard',
  'connection_read',
  'source_connect_start',
  'source_connect',
  'source_sync_request',
  'source_disconnect',
  'source_sync',
  'attachment_create',
  'attachment_delete',
  'document_read',
  'document_create',
  'document_update',
  'document_delete',
  'folder_create',
  'folder_update',
  'folder_delete',
  'calendar_read',
  'calendar_event_create',
  'calendar_event_update',
  'calendar_event_delete',
  'calendar_feed_create',
  'calendar_feed_delete',
  'calendar_feed_read',
  'appointment_read',
  'appointment_book',
  'appointment_cancel',
  'visit_start',
  'visit_extend',
  'visit_end',
  'visit_join',
  'visit_leave',
  'visit_note',
  'chat_read',
  'chat_queue_read',
  'chat_message',
  'chat_queued',
  'chat_taken',
  'chat_ended',
  'chat_refused',
  'chat_socket',
  'journal_read',
  'insurance_read',
  'insurance_create',
  'insurance_update',
  'insurance_delete',
  'insurance_photo_put',
  'insurance_photo_delete',
  'assessment_read',
  'assessment_create',
  'share_list_read',
  'share_list',
  'share_create',
  'share_revoke',
  'share_reissue',
  'share_read',
  'share_verify',
  'care_list',
  'care_invite',
  'care_resend',
  'care_update',
  'care_remove',
  'care_access_log',
  'care_accept',
  'care_decline',
  'care_leave',
  'care_signup_code',
  'care_team_access',
  'family_member_create',
  'family_member_update',
  'family_member_delete',
  'family_member_invite',
  'family_member_account',
  // The account's security
  'register',
  'login',
  'logout',
  'reauth',
  'reauth_code',
  'refresh_reuse',
  'mfa_register',
  'mfa_enable',
  'mfa_verify',
  'mfa_remove',
  'password_change',
  'password_reset_request',
  'password_reset',
  'email_change_request',
  'email_change',
  'email_confirm',
  'code_retrieval',
  'avatar_upload',
  'avatar_remove',
  'account_create',
  'account_setup',
  'account_setup_link',
  'account_link',
  'account_link_copy',
  'account_unlink',
  'account_switch',
  'account_switch_token',
  'account_close_request',
  'account_close_cancel',
  'account_erase',
  'invitation_create',
  'invitation_resend',
  'invitation_use',
  'invitation_list',
  'invitation_validate',
  // Administration
  'user_read',
  'user_update',
  'people_list',
  'people_roles',
  'people_resend',
  'people_unlock',
  'people_reset_mfa',
  'people_deactivate',
  'people_reactivate',
  'people_invite_staff',
  'people_invite',
  'people_import',
  'patient_import_create',
  'patient_import_send',
  'patient_import_read',
  'organization_create',
  'organization_update',
  'organization_deactivate',
  'organization_reactivate',
  'organization_asset',
  'organization_asset_remove',
  'organization_survey_update',
  'source_create',
  'source_update',
  'source_delete',
  'feature_update',
  'help_article_save',
  'help_article_remove',
  'operations_read',
  'account_closings_read',
  'provider_profile_update',
  'provider_schedule_update',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const KNOWN = new Set<string>(AUDIT_ACTIONS);
export const isAuditAction = (value: string): value is AuditAction => KNOWN.has(value);

/** One line of a trail, as far as its sentence goes. */
export interface AuditSentenceInput {
  action: string;
  outcome: 'success' | 'denied';
  /** Who did it, as the reader knows them (a name, a share's recipient, "Someone"). */
  who: string;
  /** The event's detail (what of the record: a share's opening is a view, a PDF or a document). */
  detail?: Readonly<Record<string, unknown>>;
  /** How many times alike on that day (1: once). */
  count?: number;
}

/** The sentence key of an event: some actions say more precisely what happened by their detail. */
function sentenceKey(action: string, outcome: AuditSentenceInput['outcome'], detail: Readonly<Record<string, unknown>>): string {
  if (outcome === 'denied') return action === 'share_verify' ? 'denied.share_verify' : 'denied.any';
  if (action === 'share_read') return detail.document !== undefined ? 'share.document' : detail.what === 'pdf' ? 'share.pdf' : 'share.viewed';
  if (action === 'record_read' && detail.summary !== undefined) return 'record.summary';
  return `actions.${action}`;
}

/**
 * An audited event as a sentence the reader understands, in their language ("Sofia Antoniou read
 * your chat 8 times"): never the raw action. An action that is not declared (an old row) reads
 * as "someone used your record".
 */
export function auditSentence(lang: Language, input: AuditSentenceInput): string {
  const detail = input.detail ?? {};
  const key = isAuditAction(input.action) || input.outcome === 'denied' ? sentenceKey(input.action, input.outcome, detail) : 'unknown';
  const sentence = translate(lang, `audit:${key}`, { who: input.who });
  const count = input.count ?? 1;
  return count > 1 ? translate(lang, 'audit:times', { sentence, count }) : sentence;
}
