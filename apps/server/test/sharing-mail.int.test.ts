// On PostgreSQL too (vitest.config.ts): a patient's share allowance under shares sent at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARES_PER_DAY_MAX, SHARES_PER_HOUR_MAX, formatMoment, type CreatedShare } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { pdfWords } from './pdf-text';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * The share e-mail is not a relay (issue 24): a patient's shares are limited per hour and per
 * day (also under parallel requests), the patient's message reaches the recipient quoted as
 * theirs and never as a link, and every mail is signed with the organisation's name.
 */

let sink: SmtpSink;
let t: TestApp;
let org: { id: number; org_name: string };
const ORG_NAME = 'Sink Street Clinic';

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, MAIL_FROM: 'Clinic <no-reply@healthbook.test>' }, perIpLimitFloor: 10_000, shareLimitFloor: 0 });
  org = await buildOrganization(t.app, { name: 'sink-clinic', org_name: ORG_NAME });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

async function patient(opts: { first_name?: string; language?: 'el' } = {}): Promise<{ user: BuiltUser; token: string; patientId: number }> {
  const user = await buildUser(t.app, { org, first_name: opts.first_name ?? 'Alice', last_name: 'Sharer' });
  if (opts.language) await t.db.updateTable('users').set({ settings: JSON.stringify({ language: opts.language }) }).where('id', '=', user.id).execute();
  const token = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  const patientId = (await t.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
  await t.app.inject({ method: 'POST', url: '/api/v1/hr/condition/', headers: bearer(token), payload: { name: 'Asthma' } });
  return { user, token, patientId };
}

const createShare = (token: string, body: Record<string, unknown> = {}, lang = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/sharing/',
    headers: { ...bearer(token), 'accept-language': lang },
    payload: { recipient_name: 'Dr Grey', recipient_email: 'grey@outside.example', categories: ['condition'], ...body },
  });

/** Moves a patient's share windows back, as if the time had passed. */
const age = (patientId: number, scope: 'sharesHour' | 'sharesDay', seconds: number) =>
  t.db
    .updateTable('attempt_counters')
    .set({ window_started_at: new Date(Date.now() - seconds * 1000) })
    .where('scope', '=', scope)
    .where('key', '=', String(patientId))
    .execute();

const mailsTo = async (to: string) => {
  await t.app.backgroundMail.drain();
  return sink.messages.filter((m) => m.envelope.to.includes(to));
};

describe('shares per patient', () => {
  it(`allows exactly ${SHARES_PER_HOUR_MAX} of 40 parallel shares to 40 addresses, refuses the rest with 429, Retry-After and a localised message`, async () => {
    const { token } = await patient();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => createShare(token, { recipient_email: `victim-${i}@outside.example`, message: 'Verify your account: https://evil.example/login' }, i % 2 ? 'el' : 'en')),
    );
    const created = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(created).toHaveLength(SHARES_PER_HOUR_MAX);
    expect(refused).toHaveLength(40 - SHARES_PER_HOUR_MAX);
    for (const res of refused) {
      const wait = Number(res.headers['retry-after']);
      expect(wait).toBeGreaterThan(3500);
      expect(wait).toBeLessThanOrEqual(3600);
    }
    const en = answers.find((a, i) => a.statusCode === 429 && i % 2 === 0)!;
    const el = answers.find((a, i) => a.statusCode === 429 && i % 2 === 1)!;
    expect(en.json()).toEqual({ detail: 'You have shared your record many times in a short while. To protect the people you write to, you can share again in 60 minutes.' });
    expect(el.json()).toEqual({ detail: 'Κοινοποιήσατε τον φάκελο υγείας σας πολλές φορές σε λίγο χρόνο. Για την προστασία των παραληπτών, μπορείτε να κοινοποιήσετε ξανά σε 60 λεπτά.' });
    // Only the shares made were mailed.
    await t.app.backgroundMail.drain();
    expect(sink.messages.filter((m) => m.envelope.to[0]!.startsWith('victim-'))).toHaveLength(SHARES_PER_HOUR_MAX);
  });

  it(`allows ${SHARES_PER_DAY_MAX} a day, whatever the hours; a new address for a share counts too`, async () => {
    const { token, patientId } = await patient();
    let first: CreatedShare | undefined;
    for (let made = 0; made < SHARES_PER_DAY_MAX; made++) {
      if (made > 0 && made % SHARES_PER_HOUR_MAX === 0) await age(patientId, 'sharesHour', 3601);
      const res = await createShare(token, { method: 'qr' });
      expect(res.statusCode, `share ${made + 1}`).toBe(201);
      first ??= res.json<CreatedShare>();
    }
    await age(patientId, 'sharesHour', 3601);
    const refused = await createShare(token, {}, 'en');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(refused.json().detail).toContain('you can share again in 24 hours');
    const reissue = await t.app.inject({ method: 'POST', url: `/api/v1/sharing/${first!.id}/reissue/`, headers: bearer(token) });
    expect(reissue.statusCode).toBe(429);
    // A day later the patient shares again.
    await age(patientId, 'sharesDay', 24 * 3600 + 1);
    expect((await createShare(token)).statusCode).toBe(201);
  });

  it('counts each patient apart', async () => {
    const a = await patient();
    const b = await patient();
    for (let i = 0; i < SHARES_PER_HOUR_MAX; i++) expect((await createShare(a.token, { method: 'qr' })).statusCode).toBe(201);
    expect((await createShare(a.token, { method: 'qr' })).statusCode).toBe(429);
    expect((await createShare(b.token, { method: 'qr' })).statusCode).toBe(201);
  });
});

describe('the share e-mail', () => {
  const phishing = 'Dear doctor,\nyour licence expires: renew at https://evil.example/renew?id=1 or www.evil.example\n<a href="https://evil.example">Renew</a>';

  it('quotes the patient’s message as theirs, as text: "> " lines in the text part, an escaped blockquote in the HTML, no link but the share’s', async () => {
    const { token } = await patient();
    const res = await createShare(token, { recipient_email: 'quoted@outside.example', message: phishing });
    expect(res.statusCode).toBe(201);
    const { url } = res.json<CreatedShare>();
    const [mail] = await mailsTo('quoted@outside.example');
    expect(mail).toBeDefined();
    expect(mail!.from).toBe('Clinic <no-reply@healthbook.test>');

    expect(mail!.text).toContain(`Alice Sharer added a message for you. These are their own words: ${ORG_NAME} did not write or check them.`);
    expect(mail!.text).toContain(
      '> Dear doctor,\n> your licence expires: renew at hxxps[://]evil[.]example/renew?id=1 or www[.]evil[.]example\n> <a href="hxxps[://]evil[.]example">Renew</a>',
    );
    expect(mail!.text).not.toMatch(/https?:\/\/evil|www\.evil|evil\.example/);
    expect(mail!.text).toContain(url);

    const html = mail!.html!;
    const quote = /<blockquote[^>]*>([\s\S]*?)<\/blockquote>/.exec(html)![1]!;
    expect(quote).toBe(
      'Dear doctor,<br>your licence expires: renew at hxxps[://]evil[.]example/renew?id=1 or www[.]evil[.]example<br>&lt;a href=&quot;hxxps[://]evil[.]example&quot;&gt;Renew&lt;/a&gt;',
    );
    expect(html).not.toMatch(/https?:\/\/evil|evil\.example/);
    expect([...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1])).toEqual([url]);
  });

  it('makes no link of a recipient’s name either', async () => {
    const { token } = await patient();
    expect((await createShare(token, { recipient_email: 'named@outside.example', recipient_name: 'https://evil.example/x' })).statusCode).toBe(201);
    const [mail] = await mailsTo('named@outside.example');
    expect(mail!.text).toContain('Hello hxxps[://]evil[.]example/x,');
    expect(mail!.html).not.toContain('evil.example');
  });

  it('is signed by the organisation, in English and in Greek', async () => {
    const { token } = await patient();
    await createShare(token, { recipient_email: 'signed-en@outside.example' });
    await createShare(token, { recipient_email: 'signed-el@outside.example', language: 'el' });
    const [en] = await mailsTo('signed-en@outside.example');
    const [el] = await mailsTo('signed-el@outside.example');
    expect(en!.text!.trimEnd().split('\n').at(-1)).toBe(`The ${ORG_NAME} team`);
    expect(el!.text!.trimEnd().split('\n').at(-1)).toBe(`Η ομάδα του ${ORG_NAME}`);
  });

  it('writes times in the patient’s zone, named: the recipient’s e-mail as the account in Athens keeps it; the recipient’s PDF in their browser’s zone', async () => {
    const { token } = await patient();
    // The account's zone, as the web app saves the browser's on sign-in (and Preferences changes it).
    const me = await t.app.inject({ method: 'PUT', url: '/api/v1/me/', headers: bearer(token), payload: { settings: { timeZone: 'Europe/Athens' } } });
    expect(me.json().settings.timeZone).toBe('Europe/Athens');
    const bad = await t.app.inject({ method: 'PUT', url: '/api/v1/me/', headers: bearer(token), payload: { settings: { timeZone: 'Mars/Olympus' } } });
    expect(bad.statusCode).toBe(400);

    const share = (await createShare(token, { recipient_email: 'zoned@outside.example' })).json<CreatedShare>();
    const [mail] = await mailsTo('zoned@outside.example');
    const athens = formatMoment(share.expires_at, 'en', 'Europe/Athens');
    expect(athens).toMatch(/^\d+ \w+ \d{4} at \d\d:\d\d \(Eastern European Time\)$/);
    expect(mail!.text).toContain(`The link works until ${athens}.`);
    expect(mail!.text).not.toContain('UTC');

    // The recipient opens it and downloads the PDF from a browser in New York: its times are theirs, named.
    const [uid, secret] = new URL(share.url).pathname.split('/').slice(-2);
    await t.app.inject({ method: 'POST', url: '/api/v1/sharing/public/code/', payload: { uid, token: secret } });
    const code = /\b(\d{6})\b/.exec((await mailsTo('zoned@outside.example')).at(-1)!.text!)![1]!;
    const session = (await t.app.inject({ method: 'POST', url: '/api/v1/sharing/public/verify/', payload: { uid, token: secret, code } })).json().session as string;
    const pdf = await t.app.inject({ method: 'GET', url: '/api/v1/sharing/public/pdf/?time_zone=America/New_York', headers: { 'x-share-session': session } });
    expect(pdf.statusCode).toBe(200);
    expect(pdfWords(pdf.rawPayload)).toContain(`until ${formatMoment(share.expires_at, 'en', 'America/New_York')}`);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/sharing/public/pdf/?time_zone=Nowhere', headers: { 'x-share-session': session } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('Unknown time zone');
  });

  it('no mail of the share’s life (link, code, first opening, lock) holds a {{ placeholder', async () => {
    const { token } = await patient({ language: 'el' });
    // link + code + opened
    const link = (await createShare(token, { recipient_email: 'life@outside.example', message: 'See you on Tuesday.' })).json<CreatedShare>();
    const [uid, secret] = new URL(link.url).pathname.split('/').slice(-2);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/sharing/public/code/', payload: { uid, token: secret } })).statusCode).toBe(200);
    const codeMail = (await mailsTo('life@outside.example')).find((m) => /\b\d{6}\b/.test(m.text ?? '') && m.subject.includes('code'))!;
    const code = /\b(\d{6})\b/.exec(codeMail.text!)![1]!;
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/sharing/public/verify/', payload: { uid, token: secret, code } });
    expect(verified.statusCode).toBe(200);
    const opened = await t.app.inject({ method: 'GET', url: '/api/v1/sharing/public/content/', headers: { 'x-share-session': verified.json().session } });
    expect(opened.statusCode).toBe(200);
    // lock: five wrong passcodes of a QR share
    const qr = (await createShare(token, { method: 'qr' })).json<CreatedShare>();
    const [quid, qsecret] = new URL(qr.url).pathname.split('/').slice(-2);
    const wrong = qr.passcode === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) await t.app.inject({ method: 'POST', url: '/api/v1/sharing/public/verify/', payload: { uid: quid, token: qsecret, code: wrong } });
    await t.app.backgroundMail.drain();
    await new Promise((r) => setTimeout(r, 200)); // the patient's mails are queued after a lookup
    await t.app.backgroundMail.drain();

    const subjects = sink.messages.map((m) => m.subject);
    expect(subjects.some((s) => s.includes('άνοιξε'))).toBe(true); // opened, to the patient, in Greek
    expect(subjects.some((s) => s.includes('κλειδώθηκε'))).toBe(true); // locked
    for (const mail of sink.messages) {
      for (const part of [mail.subject, mail.text ?? '', mail.html ?? '']) expect(part, `${mail.subject}`).not.toContain('{{');
    }
  });
});
