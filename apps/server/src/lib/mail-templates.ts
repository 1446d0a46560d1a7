import { isSupportedLanguage, translate, type Language } from '@healthbook/shared';
import type { MailMessage } from '../plugins/mail';

export type MailKind =
  | 'mfaCode'
  | 'invitation'
  | 'familyInvitation'
  | 'familyMemberJoined'
  | 'codeRetrieval'
  | 'confirm'
  | 'reset'
  | 'passwordChanged'
  | 'mfaEnabled'
  | 'mfaRemoved'
  | 'emailChangeConfirm'
  | 'emailChangeTaken'
  | 'emailChanged'
  | 'signupExisting'
  | 'appointmentBooked'
  | 'appointmentBookedProvider'
  | 'appointmentCancelled'
  | 'appointmentCancelledByProvider'
  | 'appointmentCancelledProvider'
  | 'eventReminder'
  | 'appointmentReminder'
  | 'shareLink'
  | 'shareCode'
  | 'shareOpened'
  | 'shareLocked'
  | 'helpContactReceived'
  | 'careInvitation'
  | 'careAccepted'
  | 'careRemoved'
  | 'careRemovedMember'
  | 'careLeft'
  | 'careSharesEnded';

/** Kinds a person may receive without having asked for them: they carry the "ignore this" line. */
const UNSOLICITED: ReadonlySet<MailKind> = new Set(['mfaCode', 'reset', 'codeRetrieval', 'emailChangeConfirm', 'emailChangeTaken', 'signupExisting', 'careInvitation']);

/** The language of mail to an account holder: the one they chose in their settings, else `fallback`. */
export function recipientLanguage(settings: unknown, fallback: Language): Language {
  const chosen = (settings as { language?: unknown } | null)?.language;
  return isSupportedLanguage(chosen) ? chosen : fallback;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * One e-mail in the recipient's language: greeting, body, a safety line (for unsolicited
 * kinds) and signature. Text from the shared `emails` catalog; a plain and an HTML part.
 */
export function renderMail(kind: MailKind, lang: Language, to: string, vars: Record<string, string | number>): MailMessage {
  const t = (key: string) => translate(lang, `emails:${key}`, vars);
  const parts = [t('greeting'), t(`${kind}.body`)];
  if (UNSOLICITED.has(kind)) parts.push(t('ignore'));
  parts.push(t('signature'));
  const text = parts.join('\n\n') + '\n';
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;line-height:1.5">${parts
    .map((p) => `<p>${escapeHtml(p).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>').replace(/\n/g, '<br>')}</p>`)
    .join('')}</body></html>`;
  return { to, subject: t(`${kind}.subject`), text, html };
}
