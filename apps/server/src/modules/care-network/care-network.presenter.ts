import { auditSentence, CATEGORY_KEYS, translate, type AccessLogEntry, type CareAccess, type CareMember, type CaringFor, type Language } from '@healthbook/shared';
import { memberStatus } from './care-network.policy';
import type { AccessLogRow, CareGrantRow, HeldGrantRow } from './care-network.repository';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const personName = (first: string | null | undefined, last: string | null | undefined) => [first, last].filter(Boolean).join(' ').trim();

/** A person in the patient's network, as the patient sees them (never a token or its hash). */
export function presentMember(row: CareGrantRow, now = new Date()): CareMember {
  const accountName = row.grantee_user_id !== null ? personName(row.account_first_name, row.account_last_name) || null : null;
  return {
    id: row.id,
    name: row.name,
    email: row.email ?? row.account_email ?? null,
    access: row.access,
    categories: row.categories === null ? null : [...row.categories],
    status: memberStatus(row, now),
    kind: row.kind,
    account_name: accountName,
    invited_at: new Date(row.created_at).toISOString(),
    accepted_at: iso(row.accepted_at),
    expires_at: row.status === 'active' ? null : iso(row.expires_at),
  };
}

export function presentCaringFor(row: HeldGrantRow): CaringFor {
  return {
    patient_id: row.id,
    patient_name: personName(row.first_name, row.last_name),
    access: row.grant_access,
    categories: row.grant_categories === null ? null : [...row.grant_categories],
    kind: row.grant_kind,
    since: new Date(row.grant_since).toISOString(),
  };
}

/** "full access" / "read-only access", in a language. */
export const accessWords = (access: CareAccess, lang: Language) => translate(lang, `emails:care.access.${access}`);

/** The names of record categories, in a language, joined for a sentence. */
export function categoryNames(categories: readonly string[], lang: Language): string {
  return categories.map((key) => translate(lang, `records:categories.${key}.other`)).join(', ');
}

const isCategory = (value: unknown): value is string => typeof value === 'string' && (CATEGORY_KEYS as readonly string[]).includes(value);

/** What an audited action was about, in words (the category, the area of the app), or null. */
export function accessDetail(action: string, detail: Record<string, unknown>, lang: Language): string | null {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const category = detail.category;
  if (isCategory(category)) return t(`records:categories.${category}.other`);
  if (category === 'journal') return t('features:journal');
  if (action === 'patient_access') return t('records:accessLog.refused');
  if (action === 'record_export' || action === 'record_export_open') return t('records:accessLog.export');
  if (action === 'fhir_export' || detail.fhir_export !== undefined) return t('records:accessLog.fhirExport');
  if (action === 'record_read' && detail.summary !== undefined) return t('records:accessLog.summary');
  if (action.startsWith('record_')) return t('features:health-records');
  if (action.startsWith('document_') || action.startsWith('attachment_') || action.startsWith('folder_')) return t('features:document-center');
  if (action.startsWith('calendar_')) return t('features:calendar');
  if (action.startsWith('appointment_')) return t('records:accessLog.appointments');
  if (action.startsWith('insurance_')) return t('features:insurance');
  if (action.startsWith('chat_')) return t('features:live-help');
  if (action.startsWith('assessment_')) return t('features:surveys');
  if (action === 'share_read') {
    const what = detail.what === 'pdf' ? 'pdf' : detail.document !== undefined ? 'document' : 'viewed';
    return t(`records:accessLog.share.${what}`);
  }
  if (action === 'share_verify') return t('records:accessLog.share.verified');
  if (action.startsWith('share_')) return t('features:share-record');
  if (action.startsWith('care_')) return t('features:careclub');
  return null;
}

/** One line of "who saw my record": a sentence the patient understands, and how many times on that day. */
export function presentAccess(row: AccessLogRow, lang: Language): AccessLogEntry {
  const name = personName(row.actor_first_name, row.actor_last_name);
  const viaShare = row.actor_user_id === null && (row.share_recipient !== null || row.action.startsWith('share_'));
  const via: AccessLogEntry['via'] = viaShare ? 'share' : row.actor_in_network ? 'care-network' : 'other';
  const who = viaShare ? (row.share_recipient ?? translate(lang, 'records:accessLog.shareRecipient')) : name || translate(lang, 'records:accessLog.someone');
  const outcome = row.outcome === 'success' ? 'success' : 'denied';
  const count = Number(row.count);
  return {
    at: new Date(row.at).toISOString(),
    first_at: new Date(row.first_at).toISOString(),
    count,
    who,
    via,
    action: row.action,
    outcome,
    text: auditSentence(lang, { action: row.action, outcome, who, detail: row.detail, count }),
    detail: accessDetail(row.action, row.detail, lang),
  };
}
