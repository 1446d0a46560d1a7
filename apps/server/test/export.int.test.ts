// On PostgreSQL too (vitest.config.ts): one running export per patient under 20 starts at once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_TTL_S, PDF_RETRY_AFTER_S, type ExportLink, type ExportStatus, type FeatureSetting, type HealthRecord } from '@healthbook/shared';
import { removeExpiredExports } from '../src/modules/export/export.service';
import { buildTestApp, captureLogs, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltOrganization, type BuiltUser } from './factories';
import { pdfText, pdfWords } from './pdf-text';

/**
 * PDF export: POST /api/v1/hr/export/ makes the PDF and answers a link; the link opens it for its
 * maker only, for 15 minutes. What is in it (categories, chosen records, dates, private records),
 * the refusals (unknown category, another user, another patient or organisation, expiry, the
 * feature off), the token kept out of the logs, and the hourly cleanup.
 */

let t: TestApp;
let org: BuiltOrganization;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

type Method = 'GET' | 'POST' | 'PUT' | 'OPTIONS';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });
const exportPdf = (who: string, body: object, lang = 'en') => call(who, 'POST', '/api/v1/hr/export/', body, lang);
const patientOf = async (who: string) => (await call(who, 'GET', '/api/v1/patients/')).json<Array<{ patient_id: number }>>()[0]!.patient_id;

async function add(who: string, category: string, body: object): Promise<number> {
  const res = await call(who, 'POST', `/api/v1/hr/${category}/`, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<HealthRecord>().id;
}

/** Makes an export and reads its PDF's text (as its maker). */
async function exportText(who: string, body: object, lang = 'en'): Promise<{ link: ExportLink; text: string }> {
  const res = await exportPdf(who, body, lang);
  expect(res.statusCode, res.body).toBe(201);
  const link = res.json<ExportLink>();
  const file = await call(who, 'GET', link.url);
  expect(file.statusCode, file.body).toBe(200);
  return { link, text: pdfWords(file.rawPayload) };
}

beforeAll(async () => {
  t = await buildTestApp({ seed: false });
  org = await buildOrganization(t.app, { name: 'export-clinic', org_name: 'Export Clinic', withAssets: true });
  const other = await buildOrganization(t.app, { name: 'export-other', org_name: 'Other Clinic' });
  people.alice = await buildUser(t.app, { org, first_name: 'Alice', last_name: 'Lidell', dob: '1980-06-15' });
  people.bob = await buildUser(t.app, { org, first_name: 'Bob', last_name: 'Builder', dob: '1975-01-01' });
  people.admin = await buildUser(t.app, { org, roles: ['org_admin'] });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;

  ids.asthma = await add('alice', 'condition', { name: 'Asthma', start_date: '2019-01-01', start_date_part: 'year', intensity: 4 });
  ids.hayFever = await add('alice', 'condition', { name: 'Hay fever', start_date: '2021-05-01', start_date_part: 'month' });
  ids.secret = await add('alice', 'condition', { name: 'Secret condition', start_date: '2020-02-03', start_date_part: 'day', private: true });
  ids.greek = await add('alice', 'medication', { code: 'Σαλβουταμόλη', note: 'Δύο εισπνοές το πρωί' });
  ids.weight = await add('alice', 'biometrics', { measure: 'weight', value: 72.5, date: '2026-01-10' });
  ids.bobs = await add('bob', 'condition', { name: 'Bob condition' });
  ids.strangers = await add('stranger', 'condition', { name: 'Stranger condition' });
});
afterAll(async () => {
  await t?.close();
});

describe('making a PDF and opening it', () => {
  it('answers a 15-minute link; the PDF holds the chosen categories, each record, its fields and the patient', async () => {
    const before = Date.now();
    const res = await exportPdf('alice', { types: ['condition', 'biometrics'], time_zone: 'Europe/Athens' });
    expect(res.statusCode, res.body).toBe(201);
    const link = res.json<ExportLink>();
    expect(link.url).toMatch(/^\/api\/v1\/hr\/export\/[A-Za-z0-9_-]{43}\/$/);
    expect(link.records).toBe(3);
    const ttl = Date.parse(link.expires_at) - before;
    expect(ttl).toBeGreaterThan((EXPORT_TTL_S - 60) * 1000);
    expect(ttl).toBeLessThanOrEqual((EXPORT_TTL_S + 5) * 1000);

    const file = await call('alice', 'GET', link.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['cache-control']).toContain('no-store');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="health-record-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfWords(file.rawPayload);
    expect(text).toContain('Export Clinic');
    expect(text).toContain('Alice Lidell');
    expect(text).toContain('15 June 1980');
    expect(text).toContain('Conditions (2)');
    expect(text).toContain('Asthma');
    expect(text).toMatch(/Start date 2019\b/);
    expect(text).toContain('Start date May 2021');
    expect(text).toContain('72.5 kg');
    expect(text).toContain('Page 1 of 1');
    // Not chosen: medications. Private: not asked for.
    expect(text).not.toContain('Σαλβουταμόλη');
    expect(text).not.toContain('Secret condition');

    // The link may be opened again while it lives.
    expect((await call('alice', 'GET', link.url)).statusCode).toBe(200);
  });

  it('opens with a summary page of what is current, and writes its times in the patient’s zone, named', async () => {
    const zoe = await buildUser(t.app, { org, first_name: 'Zoe', last_name: 'Summary' });
    tokens.zoe = (await signIn(t.app, { email: zoe.email, password: zoe.password, org_id: zoe.org_id })).access;
    // The patient's account is in Athens; the reader's browser (time_zone) is in New York: the patient's zone wins.
    expect((await call('zoe', 'PUT', '/api/v1/me/', { settings: { timeZone: 'Europe/Athens' } })).statusCode).toBe(200);
    await add('zoe', 'condition', { name: 'Migraine', start_date: '2015-01-01', start_date_part: 'year', verification_status: 'confirmed' });
    await add('zoe', 'condition', { name: 'Broken wrist', start_date: '2010-01-01', start_date_part: 'year', end_date: '2010-03-01', end_date_part: 'month' });
    await add('zoe', 'medication', { code: 'Sumatriptan', dosage: 50, unit: 'mg' });
    await add('zoe', 'medication', { code: 'Old antibiotic', stopped: true });
    await add('zoe', 'allergy', { code: 'Penicillin', criticality: 'high', reaction: 'Hives' });
    await add('zoe', 'lab', { test: 'Ferritin', result: 9, units: 'ng/mL', test_date: '2026-01-05', within_normal_range: false });
    await add('zoe', 'lab', { test: 'Ferritin', result: 40, units: 'ng/mL', test_date: '2026-06-05', within_normal_range: true });
    await add('zoe', 'immunization', { vaccine_name: 'Tetanus', date: '2020-04-01' });
    const res = await exportPdf('zoe', { types: ['condition', 'medication', 'allergy', 'lab', 'immunization'], time_zone: 'America/New_York' });
    expect(res.statusCode, res.body).toBe(201);
    const file = await call('zoe', 'GET', res.json<ExportLink>().url);
    const [first, ...rest] = pdfText(file.rawPayload).split('\f').map((page) => page.replace(/\s+/g, ' '));
    expect(first).toContain('Summary Active conditions Migraine');
    expect(first).not.toContain('Broken wrist');
    expect(first).toContain('Current medications Sumatriptan');
    expect(first).not.toContain('Old antibiotic');
    expect(first).toMatch(/Allergies Penicillin Criticality: High · Reaction: Hives/);
    // The latest result of each test, with its flag.
    expect(first).toMatch(/Recent results Ferritin Result: 40 ng\/mL · Flag: Normal/);
    expect(first).not.toContain('Result: 9 ');
    expect(first).toContain('Immunizations Tetanus');
    expect(first).toMatch(/Made \d+ \w+ \d{4} at \d\d:\d\d \(Eastern European Time\)/);
    // Every record follows, from the next page on.
    expect(rest.join(' ')).toContain('Conditions (2)');
    expect(rest.join(' ')).toContain('Broken wrist');
  });

  it('writes Greek (the language asked, or the request’s)', async () => {
    const { text } = await exportText('alice', { types: ['medication', 'condition'] }, 'el');
    expect(text).toContain('Φάκελος υγείας');
    expect(text).toContain('Φάρμακα (1)');
    expect(text).toContain('Σαλβουταμόλη');
    expect(text).toContain('Δύο εισπνοές το πρωί');
    expect(text).toContain('Σελίδα 1 από 1');
    expect((await exportText('alice', { types: ['medication'], language: 'en' }, 'el')).text).toContain('Medications (1)');
  });

  it('holds private records only when their owner asks for them', async () => {
    expect((await exportText('alice', { types: ['condition'] })).text).not.toContain('Secret condition');
    const { link, text } = await exportText('alice', { types: ['condition'], include_private: true });
    expect(link.records).toBe(3);
    expect(text).toContain('Secret condition');
    expect(text).toContain('For my eyes only Yes');
  });

  it('holds only the records chosen, of the chosen categories, within the dates chosen', async () => {
    const chosen = await exportText('alice', { types: ['condition', 'medication'], record_ids: [ids.hayFever, ids.greek, ids.bobs, ids.strangers, ids.secret] });
    // Another patient's records and the private one (not asked for) are not there to choose.
    expect(chosen.link.records).toBe(2);
    expect(chosen.text).toContain('Hay fever');
    expect(chosen.text).not.toContain('Asthma');
    expect(chosen.text).not.toContain('Bob condition');
    expect(chosen.text).not.toContain('Stranger condition');

    const dated = await exportText('alice', { types: ['condition'], date_from: '2020-01-01', date_to: '2026-12-31' });
    expect(dated.link.records).toBe(1);
    expect(dated.text).toContain('Hay fever');
    expect(dated.text).not.toContain('Asthma');

    const none = await exportText('alice', { types: ['allergy'] });
    expect(none.link.records).toBe(0);
    expect(none.text).toContain('There are no records to show');
  });

  it('is audited', async () => {
    await exportPdf('alice', { types: ['condition'] });
    const row = await t.db.selectFrom('audit_log').select(['subject', 'detail']).where('action', '=', 'record_export').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.subject).toBe(`patient:${await patientOf('alice')}`);
    expect(row.detail).toMatchObject({ format: 'pdf', categories: 'condition', records: 2, private: false });
  });
});

describe('refusals', () => {
  it('refuses an unknown category, no category, a bad time zone or range with a message under the field', async () => {
    const unknown = await exportPdf('alice', { types: ['condition', 'horoscope'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ 'types.1': ['This is not a health record category.'] });
    // "export" is a path, not a category.
    expect((await exportPdf('alice', { types: ['export'] })).statusCode).toBe(400);
    expect((await exportPdf('alice', { types: [] })).json()).toEqual({ types: ['Choose at least one category.'] });
    expect((await exportPdf('alice', { types: ['condition'], time_zone: 'Mars/Olympus' })).json()).toEqual({ time_zone: ['Unknown time zone.'] });
    expect((await exportPdf('alice', { types: ['condition'], date_from: '2026-02-01', date_to: '2026-01-01' })).json()).toEqual({ date_to: ['The end date cannot be before the start date'] });
  });

  it('opens a link for its maker only: another user, of the organisation or another, gets 404', async () => {
    const { url } = (await exportPdf('alice', { types: ['condition'] })).json<ExportLink>();
    expect((await call('bob', 'GET', url)).statusCode).toBe(404);
    expect((await call('stranger', 'GET', url)).statusCode).toBe(404);
    expect((await call('admin', 'GET', url)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    // An unknown token, and a malformed one.
    expect((await call('alice', 'GET', '/api/v1/hr/export/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/')).statusCode).toBe(404);
    expect((await call('alice', 'GET', '/api/v1/hr/export/not*a*token/')).statusCode).toBe(400);
    // Still the maker's.
    expect((await call('alice', 'GET', url)).statusCode).toBe(200);
    const denied = await t.db.selectFrom('audit_log').select('outcome').where('action', '=', 'record_export_open').execute();
    expect(denied.length).toBeGreaterThanOrEqual(2);
  });

  it('answers 404 once the link has expired', async () => {
    const { url } = (await exportPdf('alice', { types: ['condition'] })).json<ExportLink>();
    await t.db.updateTable('exports').set({ created_at: sql`now() - interval '16 minutes'`, expires_at: sql`now() - interval '1 minute'` }).where('user_id', '=', people.alice!.id).execute();
    expect((await call('alice', 'GET', url)).statusCode).toBe(404);
  });

  it("refuses another patient's record, of the organisation or another (404)", async () => {
    expect((await exportPdf('alice', { types: ['condition'], patient: await patientOf('bob') })).statusCode).toBe(404);
    expect((await exportPdf('alice', { types: ['condition'], patient: await patientOf('stranger') })).statusCode).toBe(404);
    expect((await exportPdf('stranger', { types: ['condition'], patient: await patientOf('alice') })).statusCode).toBe(404);
    // One's own, named: fine.
    expect((await exportPdf('alice', { types: ['condition'], patient: await patientOf('alice') })).statusCode).toBe(201);
  });

  it('is not a category: the export path has no list, options or records', async () => {
    expect((await call('alice', 'GET', '/api/v1/hr/export/')).statusCode).toBe(404);
    expect((await call('alice', 'OPTIONS', '/api/v1/hr/export/')).statusCode).toBe(404);
    expect((await call('alice', 'POST', '/api/v1/hr/condition/', { name: 'Still works' })).statusCode).toBe(201);
  });

  it('answers 403 while the organisation has health records off', async () => {
    const { url } = (await exportPdf('alice', { types: ['condition'] })).json<ExportLink>();
    const features = (await call('admin', 'POST', '/api/v1/features/get-features/', { organization_id: org.id })).json<FeatureSetting[]>();
    const records = features.find((f) => f.key === 'health-records')!;
    const set = (status: string) => call('admin', 'PUT', `/api/v1/features/${records.id}/`, { organization_id: org.id, feature_status: status });
    expect((await set('disabled')).statusCode).toBe(200);
    try {
      expect((await exportPdf('alice', { types: ['condition'] })).statusCode).toBe(403);
      expect((await call('alice', 'GET', url)).statusCode).toBe(403);
    } finally {
      expect((await set('active')).statusCode).toBe(200);
    }
    expect((await call('alice', 'GET', url)).statusCode).toBe(200);
  });
});

describe('the link token', () => {
  it('never reaches the logs', async () => {
    const { url } = (await exportPdf('alice', { types: ['condition'] })).json<ExportLink>();
    const token = url.split('/').at(-2)!;
    const logs = captureLogs(t.app);
    try {
      expect((await call('alice', 'GET', url)).statusCode).toBe(200);
      expect((await call('bob', 'GET', url)).statusCode).toBe(404);
    } finally {
      logs.restore();
    }
    const written = logs.lines.join('\n');
    expect(written).toContain('"route":"/api/v1/hr/export/:token/"');
    expect(written).not.toContain(token);
  });

  it('is kept as its hash only', async () => {
    const { url } = (await exportPdf('alice', { types: ['condition'] })).json<ExportLink>();
    const token = url.split('/').at(-2)!;
    const rows = await t.db.selectFrom('exports').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe('the hourly cleanup', () => {
  it('removes expired exports and their files, and keeps live ones', async () => {
    const live = (await exportPdf('alice', { types: ['condition'] })).json<ExportLink>();
    const old = (await exportPdf('bob', { types: ['condition'] })).json<ExportLink>();
    await t.db.updateTable('exports').set({ created_at: sql`now() - interval '2 hours'`, expires_at: sql`now() - interval '1 hour'` }).where('user_id', '=', people.bob!.id).execute();
    const oldKeys = (await t.db.selectFrom('exports').select('storage_key').where('user_id', '=', people.bob!.id).execute()).map((r) => r.storage_key!);
    expect(oldKeys.length).toBeGreaterThan(0);
    for (const key of oldKeys) expect(await t.app.storage.get(key)).not.toBeNull();

    const removed = await removeExpiredExports(t.db, t.app.storage, t.app.log);
    expect(removed.exports).toBeGreaterThanOrEqual(oldKeys.length);
    for (const key of oldKeys) expect(await t.app.storage.get(key)).toBeNull();
    expect(await t.db.selectFrom('exports').select('id').where('expires_at', '<=', sql<Date>`now()`).execute()).toEqual([]);
    expect((await call('bob', 'GET', old.url)).statusCode).toBe(404);
    expect((await call('alice', 'GET', live.url)).statusCode).toBe(200);
    // Nothing left to do: a second run removes nothing.
    expect((await removeExpiredExports(t.db, t.app.storage, t.app.log)).exports).toBe(0);
  });
});

describe('insurance cards in the PDF', () => {
  it('adds the cards’ details when asked (enough on their own), never their notes, and only the patient’s own', async () => {
    const patient = await patientOf('alice');
    await t.db
      .insertInto('insurance_cards')
      .values({ org_id: org.id, patient_id: patient, insurer: 'Acme Mutual', plan: 'Silver', member_number: 'AM-55', group_number: null, holder_name: 'Jan Lidell', holder_relationship: 'spouse', notes: 'call before visits' })
      .execute();
    const { text } = await exportText('alice', { insurance: true }, 'el');
    expect(text).toContain('Κάρτες ασφάλισης (1)');
    expect(text).toContain('Acme Mutual');
    expect(text).toContain('AM-55');
    expect(text).not.toContain('call before visits');
    expect(text).not.toContain('Asthma');
    const without = await exportText('alice', { types: ['condition'] });
    expect(without.text).not.toContain('Acme Mutual');
    const bobs = await exportText('bob', { insurance: true });
    expect(bobs.text).not.toContain('Acme Mutual');
  });
});

describe('an export answered at once (Prefer: respond-async), and its progress', () => {
  const startAsync = (who: string, body: object, lang = 'en') =>
    t.app.inject({ method: 'POST', url: '/api/v1/hr/export/', headers: { ...bearer(tokens[who]!), 'accept-language': lang, prefer: 'respond-async' }, payload: body });

  /** Polls the state until it is no longer running (the PDF is made in a worker meanwhile). */
  async function settle(who: string, statusUrl: string): Promise<{ states: ExportStatus[]; last: ExportStatus }> {
    const states: ExportStatus[] = [];
    for (let i = 0; i < 600; i++) {
      const res = await call(who, 'GET', statusUrl);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const state = res.json<ExportStatus>();
      states.push(state);
      if (state.status !== 'running') return { states, last: state };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the export never ended');
  }

  it('answers 202 with where to follow it, reports progress, then the link of the PDF', async () => {
    for (let i = 0; i < 60; i++) await add('bob', 'condition', { name: `Progress condition ${i}`, note: 'A longer note. '.repeat(30) });
    const res = await startAsync('bob', { types: ['condition'] });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json<ExportStatus>();
    expect(started).toMatchObject({ status: 'running', progress: 0, url: null, detail: null });
    expect(res.headers.location).toBe(started.status_url);
    expect(res.headers['preference-applied']).toBe('respond-async');
    // While it runs there is no PDF at its address yet.
    const early = await call('bob', 'GET', started.status_url.replace(/status\/$/, ''));
    expect([200, 404]).toContain(early.statusCode);

    const { states, last } = await settle('bob', started.status_url);
    expect(last).toMatchObject({ status: 'done', progress: 1, detail: null });
    expect(last.records).toBeGreaterThanOrEqual(60);
    // Progress only goes forward.
    const fractions = states.map((s) => s.progress);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const file = await call('bob', 'GET', last.url!);
    expect(file.statusCode).toBe(200);
    expect(pdfWords(file.rawPayload)).toContain('Progress condition 59');
  });

  it('is for its maker only: anyone else, in the organisation or not, gets 404 (and the attempt is audited)', async () => {
    const res = await startAsync('alice', { types: ['condition'] });
    expect(res.statusCode).toBe(202);
    const { status_url } = res.json<ExportStatus>();
    for (const who of ['bob', 'admin', 'stranger']) expect((await call(who, 'GET', status_url)).statusCode).toBe(404);
    expect((await settle('alice', status_url)).last.status).toBe('done');
    const denied = await t.db.selectFrom('audit_log').select('id').where('action', '=', 'record_export_open').where('outcome', '=', 'denied').where('actor_user_id', '=', people.bob!.id).execute();
    expect(denied.length).toBeGreaterThan(0);
    expect((await call('alice', 'GET', '/api/v1/hr/export/not-a-real-token-at-all/status/')).statusCode).toBe(404);
  });

  it('one export of a patient at a time in every process: a running one (another process\'s) refuses the next with 429, until it is stale', async () => {
    const patient = await patientOf('alice');
    // Another process is making one (its row, as that process would have claimed it).
    const other = await t.db
      .insertInto('exports')
      .values({ org_id: people.alice!.org_id, user_id: people.alice!.id, patient_id: patient, token_hash: 'x'.repeat(64), storage_key: null, records: 0, status: 'running', progress: 0.3, expires_at: new Date(Date.now() + 600_000) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const refused = await startAsync('alice', { types: ['condition'] }, 'el');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(PDF_RETRY_AFTER_S));
    expect(refused.json<{ detail: string }>().detail).toContain('δημιουργείται ήδη');
    // Twenty at once while none runs: exactly one starts.
    await t.db.updateTable('exports').set({ status: 'failed', error: 'errors:exportFailed' }).where('id', '=', other.id).execute();
    const burst = await Promise.all(Array.from({ length: 20 }, () => startAsync('alice', { types: ['condition'] })));
    expect(burst.filter((r) => r.statusCode === 202)).toHaveLength(1);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(19);
    await settle('alice', burst.find((r) => r.statusCode === 202)!.json<ExportStatus>().status_url);

    // A process that stopped mid-way leaves a running row nobody touches: after a minute it is failed, and the patient may ask again.
    await t.db
      .insertInto('exports')
      .values({ org_id: people.alice!.org_id, user_id: people.alice!.id, patient_id: patient, token_hash: 'y'.repeat(64), storage_key: null, records: 0, status: 'running', progress: 0.5, expires_at: new Date(Date.now() + 600_000), updated_at: sql`now() - interval '2 minutes'` })
      .execute();
    const again = await startAsync('alice', { types: ['condition'] });
    expect(again.statusCode, again.body).toBe(202);
    await settle('alice', again.json<ExportStatus>().status_url);
    const interrupted = await t.db.selectFrom('exports').select(['status', 'error']).where('token_hash', '=', 'y'.repeat(64)).executeTakeFirstOrThrow();
    expect(interrupted).toEqual({ status: 'failed', error: 'errors:exportInterrupted' });
  });

  it('a PDF that cannot be made ends as failed, with why in the reader\'s language, and frees the patient for the next', async () => {
    const res = await startAsync('alice', { types: ['condition'] }, 'el');
    expect(res.statusCode).toBe(202);
    const { status_url } = res.json<ExportStatus>();
    // As if its process had given up on it: the row says so, whatever the worker does next.
    const token_hash = (await t.db.selectFrom('exports').select('token_hash').where('status', '=', 'running').where('user_id', '=', people.alice!.id).executeTakeFirstOrThrow()).token_hash;
    await t.db.updateTable('exports').set({ status: 'failed', error: 'errors:exportFailed' }).where('token_hash', '=', token_hash).execute();
    const failed = await call('alice', 'GET', status_url, undefined, 'el');
    expect(failed.json<ExportStatus>()).toMatchObject({ status: 'failed', url: null });
    expect(failed.json<ExportStatus>().detail).toMatch(/PDF/);
    expect(failed.json<ExportStatus>().detail).not.toContain('errors:');
    expect((await call('alice', 'GET', status_url.replace(/status\/$/, ''))).statusCode).toBe(404);
    // Let the worker finish before the next test uses the pool.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  });
});
