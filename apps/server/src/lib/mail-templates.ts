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
  | 'accountSetup'
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
  | 'careSharesEnded'
  | 'accountLinkEnded'
  | 'accountClosing'
  | 'accountClosingCancelled'
  | 'careEndedPatientLeft'
  | 'careEndedMemberLeft'
  | 'mfaReset';

/** Kinds a person may receive without having asked for them: they carry the "ignore this" line. */
const UNSOLICITED: ReadonlySet<MailKind> = new Set(['mfaCode', 'reset', 'accountSetup', 'codeRetrieval', 'emailChangeConfirm', 'emailChangeTaken', 'signupExisting', 'careInvitation']);

/** The language of mail to an account holder: the one they chose in their settings, else `fallback`. */
export function recipientLanguage(settings: unknown, fallback: Language): Language {
  const chosen = (settings as { language?: unknown } | null)?.language;
  return isSupportedLanguage(chosen) ? chosen : fallback;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Text someone chose (a share's message, a name they typed) made unclickable, the way security
 * advisories and threat reports show addresses ("defanging"): `https://evil.example/x` becomes
 * `hxxps[://]evil[.]example/x`, `www.evil.example` and `me@evil.example` lose their dots to `[.]`.
 * Every mail client (Gmail, Outlook, Apple Mail's data detectors, phones) auto-links what looks
 * like an address, in the HTML part and in the plain text part alike; escaping alone, or markup
 * or invisible characters inside the address, do not stop all of them. A reader still sees
 * what was written. Dots before digits stay ("2.5 mg").
 */
export function defang(text: string): string {
  return text
    .replace(/\b(h)(tt)(ps?)(?=:\/\/)/gi, (_m, h: string, tt: string, rest: string) => `${h}${tt === 'TT' ? 'XX' : 'xx'}${rest}`)
    .replace(/:\/\//g, '[://]')
    .replace(/(?<=[\p{L}\p{N}_-])\.(?=\p{L})/gu, '[.]');
}

/** Who wrote a quoted text, and the text: shown set apart as theirs, never as ours. */
export interface MailQuote {
  /** The line before the quote (ours: who wrote it, that we did not). */
  intro: string;
  /** Their text, as they wrote it; defanged here. */
  text: string;
}

/** Every mail is signed by its organisation: a template's vars always carry its name. */
export type MailVars = { orgName: string } & Record<string, string | number>;

/**
 * One e-mail in the recipient's language: greeting, body, a quote from whoever wrote to the
 * recipient (if any), a safety line (for unsolicited kinds) and signature. Text from the shared
 * `emails` catalog; a plain and an HTML part. In the HTML part only the address the server made
 * (`link`) is a link: a URL in any other value (a name, a reason, a message) stays text.
 */
export function renderMail(kind: MailKind, lang: Language, to: string, vars: MailVars, options: { quote?: MailQuote } = {}): MailMessage {
  const t = (key: string) => translate(lang, `emails:${key}`, vars);
  const head = [t('greeting'), t(`${kind}.body`)];
  const tail = [...(UNSOLICITED.has(kind) ? [t('ignore')] : []), t('signature')];
  const quote = options.quote?.text.trim() ? { intro: options.quote.intro, lines: defang(options.quote.text.trim()).split(/\r?\n/) } : null;

  const quoted = quote ? [`${quote.intro}\n\n${quote.lines.map((l) => (l ? `> ${l}` : '>')).join('\n')}`] : [];
  const text = [...head, ...quoted, ...tail].join('\n\n') + '\n';

  const link = typeof vars.link === 'string' && /^https?:\/\//.test(vars.link) ? escapeHtml(vars.link) : null;
  const paragraph = (p: string) => {
    let html = escapeHtml(p);
    if (link) html = html.split(link).join(`<a href="${link}">${link}</a>`);
    return `<p>${html.replace(/\n/g, '<br>')}</p>`;
  };
  const blockquote = quote
    ? [
        paragraph(quote.intro),
        `<blockquote style="margin:0 0 1em;padding:0.25em 1em;border-left:3px solid #c4c4c4;color:#444;white-space:pre-wrap">${quote.lines.map(escapeHtml).join('<br>')}</blockquote>`,
      ]
    : [];
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;line-height:1.5">${[...head.map(paragraph), ...blockquote, ...tail.map(paragraph)].join('')}</body></html>`;
  return { to, subject: t(`${kind}.subject`), text, html };
}
