// On PostgreSQL too (vitest.config.ts): wrong codes and code e-mails under requests sent at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedShare, HealthRecord, Share, ShareAccess, ShareOpening, SharedContent, ShareSession } from '@healthbook/shared';
import { sha256 } from '../src/lib/crypto';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { pdfText } from './pdf-text';
import { fhirValidator } from './fhir-samples';
import { compactDecrypt, decodeProtectedHeader } from 'jose';

/**
 * Sharing by link and QR code (issue 10): the rules of creating a share, what a recipient sees
 * (live, never a private record), the e-mailed code and the passcode with their lifetime limit
 * of five wrong tries (also under parallel guesses), expiry and revocation, the tokens' entropy
 * and hashing, the access log, and the refusals across patients and organisations.
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};
const patients: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true, perIpLimitFloor: 10_000 });
  const hb = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()) as { id: number };
  const other = await buildOrganization(t.app, { name: 'sharing-other' });
  people.alice = await buildUser(t.app, { org: hb, dob: '1980-06-15', first_name: 'Alice', last_name: 'Sharer' });
  people.bob = await buildUser(t.app, { org: hb, dob: '1975-01-01' });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  for (const [name, user] of Object.entries(people)) {
    tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    patients[name] = (await t.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
  }
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string | null, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(who ? bearer(tokens[who]!) : {}), 'accept-language': 'en', ...headers }, ...(payload ? { payload } : {}) });

const createRecord = async (who: string, category: string, body: Record<string, unknown>): Promise<HealthRecord> => {
  const res = await call(who, 'POST', `/api/v1/hr/${category}/`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<HealthRecord>();
};

const share = async (who: string, body: Record<string, unknown>): Promise<CreatedShare> => {
  const res = await call(who, 'POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CreatedShare>();
};

/** The uid and token of a recipient's address. */
const linkOf = (created: { url: string }) => {
  const parts = new URL(created.url).pathname.split('/');
  return { uid: parts.at(-2)!, token: parts.at(-1)! };
};

async function mailsTo(to: string) {
  await t.app.backgroundMail.drain();
  return t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', to).orderBy('id').execute();
}

const open = (link: { uid: string; token: string }) => call(null, 'POST', '/api/v1/sharing/public/open/', link);
const sendCode = (link: { uid: string; token: string }) => call(null, 'POST', '/api/v1/sharing/public/code/', link);
const verify = (link: { uid: string; token: string }, code: string) => call(null, 'POST', '/api/v1/sharing/public/verify/', { ...link, code });
const content = (session: string, lang = 'en') => call(null, 'GET', '/api/v1/sharing/public/content/', undefined, { 'x-share-session': session, 'accept-language': lang, 'user-agent': 'TestBrowser/1.0' });

/** The six digits of the last code e-mailed to an address. */
async function lastCode(to: string): Promise<string> {
  const mail = (await mailsTo(to)).at(-1)!;
  return /\b([0-9]{6})\b/.exec(mail.text_body)![1]!;
}

/** Opens a link share as its recipient: the code by e-mail, then the session. */
async function openAsRecipient(created: CreatedShare, email = 'grey@clinic.example'): Promise<string> {
  const link = linkOf(created);
  expect((await sendCode(link)).statusCode).toBe(200);
  const res = await verify(link, await lastCode(email));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ShareSession>().session;
}

describe('a link share of two categories', () => {
  let created: CreatedShare;
  let asthma: HealthRecord;
  let secret: HealthRecord;
  let lab: HealthRecord;

  beforeAll(async () => {
    asthma = await createRecord('alice', 'condition', { name: 'Asthma', start_date: '2019-01-01', start_date_part: 'year' });
    secret = await createRecord('alice', 'condition', { name: 'Private matter', private: true });
    lab = await createRecord('alice', 'lab', { test: 'Haemoglobin', result: 13.5, units: 'g/dL', range_low: 14, range_high: 18 });
    await createRecord('alice', 'allergy', { code: 'Penicillin' });
    created = await share('alice', { categories: ['condition', 'lab'], recipient_email: 'Grey@Clinic.example', message: 'For Tuesday' });
  });

  it('answers the address once, keeps only hashes, and e-mails the recipient the link', async () => {
    expect(created).toMatchObject({ kind: 'records', method: 'link', status: 'active', recipient_email: 'grey@clinic.example', categories: ['condition', 'lab'], passcode: null });
    const { uid, token } = linkOf(created);
    expect(new URL(created.url).pathname).toBe(`/healthbook/sharedrecords/${uid}/${token}`);
    // 256 bits of token (43 base64url characters), 96 bits of uid.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const row = await t.db.selectFrom('shares').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const mail = (await mailsTo('grey@clinic.example')).at(-1)!;
    expect(mail.text_body).toContain(created.url);
    expect(mail.text_body).toContain('For Tuesday');
    expect(mail.subject).toContain('Alice Sharer');
  });

  it('shows the verification page nothing of the record, and e-mails a six-digit code', async () => {
    const link = linkOf(created);
    const opening = await open(link);
    expect(opening.statusCode).toBe(200);
    expect(opening.json<ShareOpening>()).toMatchObject({ kind: 'records', method: 'link', patient_first_name: 'Alice', recipient_email_hint: 'g•••@clinic.example', attempts_left: 5, organization: { client_id: 'healthbook' } });
    expect(opening.body).not.toContain('Asthma');
    const sent = await sendCode(link);
    expect(sent.json()).toEqual({ sent_to: 'g•••@clinic.example', expires_in: 600 });
    expect(await lastCode('grey@clinic.example')).toMatch(/^[0-9]{6}$/);
  });

  it('opens the records with the right code, live and without the private one, and logs every opening', async () => {
    const session = await openAsRecipient(created);
    const res = await content(session);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<SharedContent>();
    expect(body.patient).toEqual({ first_name: 'Alice', last_name: 'Sharer', dob: '1980-06-15' });
    expect(body.sections.map((s) => s.category)).toEqual(['condition', 'lab']);
    const conditions = body.sections[0]!.records;
    expect(conditions.map((r) => r.title)).toEqual(['Asthma']);
    expect(conditions[0]!.fields).toContainEqual({ name: 'start_date', label: 'Start date', value: '2019' });
    expect(res.body).not.toContain('Private matter');
    expect(res.body).not.toContain('Penicillin');
    // A lab result with its units, its reference range and its flag, worked out from the two.
    expect(body.sections[1]!.records[0]!.fields).toEqual(
      expect.arrayContaining([
        { name: 'result', label: 'Result', value: '13.5 g/dL' },
        { name: 'reference_range', label: 'Reference range', value: '14–18 g/dL' },
        { name: 'flag', label: 'Flag', value: 'Low' },
      ]),
    );

    // Live: a change shows at the next opening; a record made private disappears from it.
    await call('alice', 'PATCH', `/api/v1/hr/condition/${asthma.id}/`, { name: 'Asthma (mild)' });
    await call('alice', 'PATCH', `/api/v1/hr/lab/${lab.id}/`, { private: true });
    const again = (await content(session, 'el')).json<SharedContent>();
    expect(again.sections.map((s) => s.category)).toEqual(['condition']);
    expect(again.sections[0]!.name).toBe('Παθήσεις');
    expect(again.sections[0]!.records[0]!.title).toBe('Asthma (mild)');
    expect(JSON.stringify(again)).not.toContain(String(secret.name));

    const log = (await call('alice', 'GET', `/api/v1/sharing/${created.id}/accesses/`)).json<ShareAccess[]>();
    expect(log.map((a) => a.action)).toEqual(['viewed', 'viewed', 'verified']);
    expect(log[0]).toMatchObject({ recipient_name: 'Dr Grey', user_agent: 'TestBrowser/1.0', shown: { categories: ['condition'], records: 1, documents: 0 } });
    expect(log[1]!.shown).toEqual({ categories: ['condition', 'lab'], records: 2, documents: 0 });
    const listed = (await call('alice', 'GET', '/api/v1/sharing/')).json<Share[]>().find((s) => s.id === created.id)!;
    expect(listed).toMatchObject({ opened_count: 2, last_opened_at: expect.any(String) });

    // The patient is told of the first opening only.
    const told = (await mailsTo(people.alice!.email)).filter((m) => m.subject.includes('opened the record you shared'));
    expect(told).toHaveLength(1);
    // Openings by the recipient are in the audit trail.
    const audited = await t.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('action', '=', 'share_read').where('subject', '=', `patient:${patients.alice}`).execute();
    expect(audited.length).toBeGreaterThanOrEqual(2);
    expect(audited.every((a) => a.actor_user_id === null)).toBe(true);
  });

  it('gives the recipient the shared records as a PDF, in their language, without the private ones', async () => {
    const session = await openAsRecipient(created);
    const res = await call(null, 'GET', '/api/v1/sharing/public/pdf/', undefined, { 'x-share-session': session, 'accept-language': 'el' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Asthma (mild)');
    expect(text).toContain('Κοινοποιήθηκε σε Dr Grey');
    expect(text).not.toContain('Private matter');
    expect(text).not.toContain('Haemoglobin');
    const log = (await call('alice', 'GET', `/api/v1/sharing/${created.id}/accesses/`)).json<ShareAccess[]>();
    expect(log[0]!.action).toBe('pdf');
    expect((await call(null, 'GET', '/api/v1/sharing/public/pdf/')).statusCode).toBe(401);
  });

  it('uses an e-mailed code once, and only the last one sent', async () => {
    const link = linkOf(created);
    // The codes sent above used this quarter hour's three.
    await t.db.deleteFrom('attempt_counters').where('scope', '=', 'shareCode').execute();
    expect((await sendCode(link)).statusCode).toBe(200);
    const code = await lastCode('grey@clinic.example');
    expect((await verify(link, code)).statusCode).toBe(200);
    expect((await verify(link, code)).statusCode).toBe(400);
  });

  it('answers a session that does not exist with 401, and a malformed one alike', async () => {
    expect((await content('x'.repeat(43))).statusCode).toBe(401);
    expect((await content('not a session')).statusCode).toBe(401);
    expect((await call(null, 'GET', '/api/v1/sharing/public/content/')).statusCode).toBe(401);
  });

  it('stops at once when revoked: the address and open sessions alike', async () => {
    const other = await share('alice', { categories: ['condition'] });
    const session = await openAsRecipient(other);
    const revoked = await call('alice', 'POST', `/api/v1/sharing/${other.id}/revoke/`);
    expect(revoked.json<Share>()).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    const res = await open(linkOf(other));
    expect(res.statusCode).toBe(410);
    expect(res.json()).toEqual({ detail: 'This share was revoked by the person who shared it.', reason: 'revoked' });
    expect((await content(session)).statusCode).toBe(401);
    expect((await call('alice', 'POST', `/api/v1/sharing/${other.id}/reissue/`)).statusCode).toBe(400);
  });
});

describe('a QR share and its passcode', () => {
  it('opens with the passcode, never with an e-mailed code', async () => {
    await createRecord('alice', 'immunization', { vaccine_name: 'Tetanus' });
    const created = await share('alice', { categories: ['immunization'], method: 'qr', expires_in: '1h' });
    expect(created.passcode).toMatch(/^[0-9]{6}$/);
    expect(new URL(created.url).pathname).toMatch(/^\/healthbook\/sharedqrcoderecords\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]{43}$/);
    const row = await t.db.selectFrom('shares').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(`"${created.passcode}"`);
    const link = linkOf(created);
    expect((await sendCode(link)).statusCode).toBe(400);
    const wrong = created.passcode === '000000' ? '111111' : '000000';
    const refused = await verify(link, wrong);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: ['This code is not right. Attempts left: 4.'] });
    const res = await verify(link, created.passcode!);
    expect(res.statusCode).toBe(200);
    expect((await content(res.json<ShareSession>().session)).json<SharedContent>().sections[0]!.category).toBe('immunization');
    // The right passcode gave its try back: only the wrong one counts.
    expect((await open(link)).json<ShareOpening>().attempts_left).toBe(4);
  });

  it('locks after five wrong passcodes, even when twenty are tried at once; a new passcode opens it again', async () => {
    const created = await share('alice', { categories: ['immunization'], method: 'qr' });
    const link = linkOf(created);
    const wrong = created.passcode === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(link, wrong)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(4);
    expect(statuses.filter((s) => s === 410)).toHaveLength(16);
    const row = await t.db.selectFrom('shares').select('failed_attempts').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(5);
    // Locked: even the right passcode is refused now.
    const locked = await verify(link, created.passcode!);
    expect(locked.statusCode).toBe(410);
    expect(locked.json()).toMatchObject({ reason: 'locked' });
    expect((await call('alice', 'GET', `/api/v1/sharing/${created.id}/`)).json<Share>()).toMatchObject({ status: 'locked', failed_attempts: 5 });
    expect((await mailsTo(people.alice!.email)).some((m) => m.subject.includes('was locked'))).toBe(true);

    const reissued = await call('alice', 'POST', `/api/v1/sharing/${created.id}/reissue/`);
    expect(reissued.statusCode, reissued.body).toBe(200);
    const fresh = reissued.json<CreatedShare>();
    expect(fresh).toMatchObject({ status: 'active', failed_attempts: 0 });
    expect(fresh.url).not.toBe(created.url);
    expect((await open(link)).statusCode).toBe(404);
    expect((await verify(linkOf(fresh), fresh.passcode!)).statusCode).toBe(200);
  });

  it('counts e-mailed codes too, and sends at most three codes a quarter hour', async () => {
    const created = await share('alice', { categories: ['immunization'], recipient_email: 'limits@clinic.example' });
    const link = linkOf(created);
    const sent = await Promise.all(Array.from({ length: 6 }, () => sendCode(link)));
    expect(sent.map((s) => s.statusCode).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    const tooMany = sent.find((s) => s.statusCode === 429)!;
    expect(tooMany.headers['retry-after']).toBeDefined();
  });
});

describe('expiry', () => {
  it('offers 1 hour to 30 days, or a moment of the patient’s choosing up to 90 days ahead', async () => {
    const now = Date.now();
    const day = (await share('alice', { categories: ['condition'], expires_in: '1d' })).expires_at;
    expect(Math.abs(new Date(day).getTime() - (now + 86_400_000))).toBeLessThan(60_000);
    const at = new Date(now + 89 * 86_400_000).toISOString();
    expect((await share('alice', { categories: ['condition'], expires_in: 'custom', expires_at: at })).expires_at).toBe(at);
  });

  it('shows an expired share as expired, also to a session opened before', async () => {
    const created = await share('alice', { categories: ['condition'] });
    const session = await openAsRecipient(created);
    await t.db.updateTable('shares').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', created.id).execute();
    const res = await open(linkOf(created));
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ reason: 'expired' });
    expect((await content(session)).json()).toMatchObject({ reason: 'expired' });
    expect((await call('alice', 'GET', `/api/v1/sharing/${created.id}/`)).json<Share>().status).toBe('expired');
  });
});

describe('refusals', () => {
  const count = async () => Number((await t.db.selectFrom('shares').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('creates nothing for a private record, another patient’s record, an unknown category, a bad expiry or address', async () => {
    const mine = await createRecord('alice', 'condition', { name: 'Hidden', private: true });
    const bobs = await createRecord('bob', 'condition', { name: 'Bob’s' });
    const strangers = await createRecord('stranger', 'condition', { name: 'Stranger’s' });
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ record_ids: [mine.id] }, 'record_ids'],
      [{ record_ids: [bobs.id] }, 'record_ids'],
      [{ record_ids: [strangers.id] }, 'record_ids'],
      [{ categories: ['passport'] }, 'categories.0'],
      [{ categories: [] }, 'non_field_errors'],
      [{ categories: ['condition'], expires_in: 'custom', expires_at: new Date(Date.now() - 60_000).toISOString() }, 'expires_at'],
      [{ categories: ['condition'], expires_in: 'custom', expires_at: new Date(Date.now() + 91 * 86_400_000).toISOString() }, 'expires_at'],
      [{ categories: ['condition'], expires_in: 'custom' }, 'expires_at'],
      [{ categories: ['condition'], expires_in: '2y' }, 'expires_in'],
      [{ categories: ['condition'], recipient_email: 'not-an-address' }, 'recipient_email'],
      [{ categories: ['condition'], recipient_name: '   ' }, 'recipient_name'],
      [{ kind: 'documents', document_ids: [999_999] }, 'document_ids'],
      [{ kind: 'documents', categories: ['condition'] }, 'categories'],
    ];
    for (const [body, field] of cases) {
      const res = await call('alice', 'POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json<Record<string, string[]>>()), JSON.stringify(body)).toContain(field);
    }
    expect(await count()).toBe(before);
  });

  it('keeps shares to their patient: another patient or organisation gets 404 for every route', async () => {
    const created = await share('alice', { categories: ['condition'] });
    for (const who of ['bob', 'stranger']) {
      expect((await call(who, 'GET', `/api/v1/sharing/${created.id}/`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/v1/sharing/${created.id}/accesses/`)).statusCode).toBe(404);
      expect((await call(who, 'POST', `/api/v1/sharing/${created.id}/revoke/`)).statusCode).toBe(404);
      expect((await call(who, 'POST', `/api/v1/sharing/${created.id}/reissue/`)).statusCode).toBe(404);
      expect((await call(who, 'GET', '/api/v1/sharing/')).json<Share[]>().map((s) => s.id)).not.toContain(created.id);
      expect((await call(who, 'GET', `/api/v1/sharing/?patient=${patients.alice}`)).statusCode).toBe(404);
      expect((await call(who, 'POST', `/api/v1/sharing/?patient=${patients.alice}`, { categories: ['condition'], recipient_name: 'X', recipient_email: 'x@example.com' })).statusCode).toBe(404);
    }
    expect((await call('alice', 'GET', `/api/v1/sharing/${created.id}/`)).json<Share>().status).toBe('active');
    expect((await call(null, 'GET', '/api/v1/sharing/')).statusCode).toBe(401);
  });

  it('answers an unknown address and a wrong token for a real one alike, and a malformed one with 400, never a 500', async () => {
    const created = await share('alice', { categories: ['condition'] });
    const { uid, token } = linkOf(created);
    const wrongToken = await open({ uid, token: token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) });
    const unknown = await open({ uid: 'AAAAAAAAAAAAAAAA', token });
    expect(wrongToken.statusCode).toBe(404);
    expect(unknown.statusCode).toBe(404);
    expect(wrongToken.body).toBe(unknown.body);
    for (const body of [{ uid: 'a/b', token }, { uid, token: '../../etc' }, { uid }, {}, { uid: 'x'.repeat(500), token }]) {
      const res = await call(null, 'POST', '/api/v1/sharing/public/open/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await verify({ uid, token }, '12345')).statusCode).toBe(400);
    expect((await verify({ uid, token }, 'abcdef')).statusCode).toBe(400);
  });
});

describe('documents', () => {
  it('shares documents, not those of a private record, and lets the recipient download them', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const boundary = '----share';
    const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), pdf, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const up = await t.app.inject({ method: 'POST', url: '/api/v1/documents/', payload, headers: { ...bearer(tokens.alice!), 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(up.statusCode, up.body).toBe(201);
    const documentId = up.json<{ id: number }>().id;
    const created = await share('alice', { kind: 'documents', document_ids: [documentId] });
    expect(new URL(created.url).pathname).toContain('/healthbook/shareddocs/');
    expect(created.documents).toEqual([{ id: documentId, file_name: 'scan.pdf' }]);
    const session = await openAsRecipient(created);
    const body = (await content(session)).json<SharedContent>();
    expect(body).toMatchObject({ kind: 'documents', sections: [], documents: [{ id: documentId, file_name: 'scan.pdf' }] });
    const file = await call(null, 'GET', `/api/v1/sharing/public/files/${documentId}/`, undefined, { 'x-share-session': session });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // A document that is not in the share is not there.
    const bobsUpload = await t.app.inject({ method: 'POST', url: '/api/v1/documents/', payload, headers: { ...bearer(tokens.bob!), 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect((await call(null, 'GET', `/api/v1/sharing/public/files/${bobsUpload.json<{ id: number }>().id}/`, undefined, { 'x-share-session': session })).statusCode).toBe(404);
  });
});

describe('rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ config: { authRateLimit: 5 }, perIpLimitFloor: 0 });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('throttles the public routes per client address', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => limited.app.inject({ method: 'POST', url: '/api/v1/sharing/public/open/', payload: { uid: 'AAAAAAAAAAAAAAAA', token: 'B'.repeat(43) } })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses.filter((s) => s === 404)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
  });
});

describe('SMART Health Links', () => {
  it('offers a QR share of records as an SHL whose manifest gives the shared records as an encrypted FHIR Bundle', async () => {
    await createRecord('alice', 'allergy', { code: 'Latex', private: true });
    const created = await share('alice', { categories: ['allergy', 'immunization'], method: 'qr', expires_in: '7d' });
    expect(created.smart_health_link).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/);
    const payload = JSON.parse(Buffer.from(created.smart_health_link!.slice('shlink:/'.length), 'base64url').toString()) as { url: string; key: string; exp: number; flag: string; label: string; v: number };
    expect(payload).toMatchObject({ flag: 'P', v: 1, label: 'Health record of Alice Sharer', exp: Math.floor(new Date(created.expires_at).getTime() / 1000) });
    expect(payload.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const manifest = new URL(payload.url).pathname;
    expect(manifest).toMatch(/^\/api\/v1\/shl\/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]{43}$/);
    // Nothing of the key is kept.
    const row = await t.db.selectFrom('shares').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(payload.key);

    const wrong = await t.app.inject({ method: 'POST', url: manifest, payload: { recipient: 'Viewer', passcode: created.passcode === '000000' ? '111111' : '000000' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ remainingAttempts: 4 });
    expect(wrong.headers['access-control-allow-origin']).toBe('*');
    const preflight = await t.app.inject({ method: 'OPTIONS', url: manifest, headers: { origin: 'https://viewer.example', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);

    const res = await t.app.inject({ method: 'POST', url: manifest, payload: { recipient: 'Dr Viewer', passcode: created.passcode } });
    expect(res.statusCode, res.body).toBe(200);
    const { files } = res.json<{ files: Array<{ contentType: string; embedded: string }> }>();
    expect(files).toHaveLength(1);
    expect(files[0]!.contentType).toBe('application/fhir+json');
    expect(decodeProtectedHeader(files[0]!.embedded)).toMatchObject({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' });
    const { plaintext } = await compactDecrypt(files[0]!.embedded, Buffer.from(payload.key, 'base64url'));
    const bundle = JSON.parse(new TextDecoder().decode(plaintext)) as { resourceType: string; type: string; entry: Array<{ resource: { resourceType: string } & Record<string, unknown> }> };
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const types = bundle.entry.map((e) => e.resource.resourceType);
    expect(types[0]).toBe('Patient');
    expect(types).toContain('AllergyIntolerance');
    expect(types).toContain('Immunization');
    expect(JSON.stringify(bundle)).not.toContain('Latex');
    const validate = await fhirValidator();
    for (const entry of bundle.entry) validate(entry.resource);

    const log = (await call('alice', 'GET', `/api/v1/sharing/${created.id}/accesses/`)).json<ShareAccess[]>();
    expect(log[0]).toMatchObject({ action: 'viewed', user_agent: 'SMART Health Link: Dr Viewer' });
    // Revoked: the manifest is gone (404), like anything not live.
    await call('alice', 'POST', `/api/v1/sharing/${created.id}/revoke/`);
    expect((await t.app.inject({ method: 'POST', url: manifest, payload: { recipient: 'Dr Viewer', passcode: created.passcode } })).statusCode).toBe(404);
  });

  it('is not offered for link shares, and counts wrong passcodes with the QR page’s', async () => {
    expect((await share('alice', { categories: ['allergy'] })).smart_health_link).toBeNull();
    const created = await share('alice', { categories: ['allergy'], method: 'qr' });
    const payload = JSON.parse(Buffer.from(created.smart_health_link!.slice('shlink:/'.length), 'base64url').toString()) as { url: string };
    const wrong = created.passcode === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 8 }, () => t.app.inject({ method: 'POST', url: new URL(payload.url).pathname, payload: { recipient: 'x', passcode: wrong } })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([401, 401, 401, 401, 401, 404, 404, 404]);
    expect((await open(linkOf(created))).json()).toMatchObject({ reason: 'locked' });
  });
});

describe('a share with the insurance cards', () => {
  beforeAll(async () => {
    const org = (await t.db.selectFrom('patients').select('org_id').where('id', '=', patients.bob!).executeTakeFirstOrThrow()).org_id;
    await t.db
      .insertInto('insurance_cards')
      .values({ org_id: org, patient_id: patients.bob!, insurer: 'Acme Health', plan: 'Gold', member_number: 'M-123', group_number: 'G-9', holder_name: null, valid_from: '2026-01-01', valid_to: '2026-12-31', notes: 'not for sharing', front_key: 'x/front', front_content_type: 'image/png' })
      .execute();
  });

  it('shows the cards’ details live (never their photos or notes), also as the only thing shared, and in the PDF', async () => {
    const created = await share('bob', { insurance: true, recipient_email: 'ins@clinic.example' });
    expect(created.insurance).toBe(true);
    expect(created.categories).toEqual([]);
    const session = await openAsRecipient(created, 'ins@clinic.example');
    const body = (await content(session)).json<SharedContent>();
    expect(body.sections).toEqual([]);
    expect(body.insurance).toEqual([
      expect.objectContaining({ insurer: 'Acme Health', plan: 'Gold', member_number: 'M-123', group_number: 'G-9', holder_relationship: 'self', valid_from: '2026-01-01', valid_to: '2026-12-31' }),
    ]);
    expect(JSON.stringify(body)).not.toContain('not for sharing');
    expect(JSON.stringify(body)).not.toContain('front');
    const pdf = await call(null, 'GET', '/api/v1/sharing/public/pdf/', undefined, { 'x-share-session': session, 'accept-language': 'el' });
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Κάρτες ασφάλισης (1)');
    expect(text).toContain('M-123');
  });

  it('leaves them out unless asked, and refuses them on a share of documents', async () => {
    await createRecord('bob', 'allergy', { code: 'Latex' });
    const without = await share('bob', { categories: ['allergy'], recipient_email: 'noins@clinic.example' });
    expect(without.insurance).toBe(false);
    const session = await openAsRecipient(without, 'noins@clinic.example');
    expect((await content(session)).json<SharedContent>().insurance).toEqual([]);
    const refused = await call('bob', 'POST', '/api/v1/sharing/', { kind: 'documents', document_ids: [1], insurance: true, recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toHaveProperty('insurance');
  });
});
