import { sharedCatalogs, SUPPORTED_LANGUAGES } from '@healthbook/shared';
import { describe, expect, it } from 'vitest';
import { defang, renderMail, type MailKind } from './mail-templates';

const en = sharedCatalogs.en.emails as unknown as Record<string, unknown>;
/** Every template of the catalog: an entry with a subject and a body. */
const KINDS = Object.keys(en).filter((k) => {
  const entry = en[k] as { subject?: unknown; body?: unknown };
  return typeof entry === 'object' && typeof entry.subject === 'string' && typeof entry.body === 'string';
}) as MailKind[];

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]!);
const templateOf = (lang: 'en' | 'el', kind: string) => {
  const catalog = sharedCatalogs[lang].emails as unknown as Record<string, { subject: string; body: string }>;
  return catalog[kind]!;
};

describe('every mail template', () => {
  it('is found (the catalog is read as expected)', () => {
    expect(KINDS.length).toBeGreaterThan(25);
    expect(KINDS).toEqual(expect.arrayContaining(['shareLink', 'reset', 'passwordChanged', 'careInvitation']));
  });

  it.each(KINDS)('%s: the Greek template names the variables the English one does', (kind) => {
    const names = (lang: 'en' | 'el') => new Set(placeholders(`${templateOf(lang, kind).subject}\n${templateOf(lang, kind).body}`));
    expect([...names('el')].sort()).toEqual([...names('en')].sort());
  });

  it.each(KINDS)('%s: rendered with the variables its English template names, no {{ is left in either language, and the organisation signs it', (kind) => {
    const { subject, body } = templateOf('en', kind);
    const vars = Object.fromEntries(placeholders(`${subject}\n${body}`).map((name) => [name, `v-${name}`]));
    for (const lang of SUPPORTED_LANGUAGES) {
      const mail = renderMail(kind, lang, 'someone@example.test', { ...vars, name: 'Maria', orgName: 'Athens Clinic' });
      for (const part of [mail.subject, mail.text, mail.html ?? '']) expect(part).not.toContain('{{');
      expect(mail.text).toContain('Athens Clinic');
      expect(mail.text.trimEnd().split('\n').at(-1)).toContain('Athens Clinic');
    }
  });
});

describe('links', () => {
  it('makes only the address the server built a link; a URL in any other value stays text', () => {
    const mail = renderMail('appointmentBookedProvider', 'en', 'dr@example.test', { orgName: 'Clinic', name: 'Dr', patient: 'https://evil.example/p', when: 'today', reason: 'see http://evil.example/login' });
    expect(mail.html).not.toContain('<a ');
    const reset = renderMail('reset', 'en', 'a@example.test', { orgName: 'Clinic', name: 'A', link: 'https://hb.example/reset/abc?x=1&y=2' });
    expect(reset.html).toContain('<a href="https://hb.example/reset/abc?x=1&amp;y=2">https://hb.example/reset/abc?x=1&amp;y=2</a>');
  });
});

describe('defang', () => {
  it('breaks addresses so that no mail client links them, and leaves other text alone', () => {
    expect(defang('see https://evil.example/login?a=1 now')).toBe('see hxxps[://]evil[.]example/login?a=1 now');
    expect(defang('HTTP://EVIL.EXAMPLE')).toBe('HXXP[://]EVIL[.]EXAMPLE');
    expect(defang('www.bank-login.example and me@evil.example')).toBe('www[.]bank-login[.]example and me@evil[.]example');
    expect(defang('ftp://x.example')).toBe('ftp[://]x[.]example');
    expect(defang('Take 2.5 mg twice a day. Thanks!')).toBe('Take 2.5 mg twice a day. Thanks!');
    expect(defang('Για την Τρίτη. Ευχαριστώ')).toBe('Για την Τρίτη. Ευχαριστώ');
  });
});

describe('a quote', () => {
  const render = (text: string) =>
    renderMail('shareLink', 'en', 'grey@example.test', { orgName: 'Athens Clinic', name: 'Dr Grey', patient: 'Alice', link: 'https://hb.example/s/1', expires: 'tomorrow' }, { quote: { intro: 'Alice added a message for you.', text } });

  it('goes in the text part after its intro, each line behind "> ", defanged, before the signature', () => {
    const mail = render('Hello doctor,\n\nclick https://evil.example/pay <b>now</b>');
    expect(mail.text).toContain('Alice added a message for you.\n\n> Hello doctor,\n>\n> click hxxps[://]evil[.]example/pay <b>now</b>\n\nThe Athens Clinic team\n');
  });

  it('goes in the HTML part as an escaped blockquote with no link in it', () => {
    const mail = render('click https://evil.example/pay <a href="https://evil.example">here</a>');
    const quote = /<blockquote[^>]*>(.*?)<\/blockquote>/s.exec(mail.html!)![1]!;
    expect(quote).toBe('click hxxps[://]evil[.]example/pay &lt;a href=&quot;hxxps[://]evil[.]example&quot;&gt;here&lt;/a&gt;');
    expect(mail.html!.match(/<a /g)).toHaveLength(1); // the share's own link only
    expect(mail.html).toContain('<a href="https://hb.example/s/1">');
  });

  it('is left out when there is no text', () => {
    expect(render('   ').text).not.toContain('Alice added');
  });
});
