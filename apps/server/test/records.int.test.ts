import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, type HealthRecord, type RecordOptions, type RecordPage, type RecordSummary, type RecordVersion } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { minimalRecord } from './record-samples';

/**
 * Health records through the generic routes: every category's create, list (each parameter),
 * read, replace, change, delete and options; the rules with their messages; versions; private
 * records; and the refusals across patients and organisations.
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const hb = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()) as { id: number };
  const other = await buildOrganization(t.app, { name: 'records-other' });
  people.alice = await buildUser(t.app, { org: hb, dob: '1980-06-15' });
  people.bob = await buildUser(t.app, { org: hb, dob: '1975-01-01' });
  people.admin = await buildUser(t.app, { org: hb, roles: ['org_admin'] });
  people.superadmin = await buildUser(t.app, { org: hb, roles: ['org_admin'], is_superadmin: true });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });
const patientOf = async (who: string) => (await call(who, 'GET', '/api/v1/patients/')).json<Array<{ patient_id: number }>>()[0]!.patient_id;

describe('every category through the generic routes', () => {
  for (const category of CATEGORIES) {
    it(`${category.key}: create, list, read, replace, change, options, delete`, async () => {
      const created = await call('alice', 'POST', `/api/v1/hr/${category.key}/`, minimalRecord(category.key));
      expect(created.statusCode, created.body).toBe(201);
      const record = created.json<HealthRecord>();
      expect(record).toMatchObject({ record_type: category.key, private: false, version: 1, attachments: [] });
      if (category.key === 'allergy') expect(record.allergy_id).toBe(record.id);

      const list = (await call('alice', 'GET', `/api/v1/hr/${category.key}/`)).json<RecordPage>();
      expect(list.count).toBe(1);
      expect(list.results[0]!.id).toBe(record.id);

      expect((await call('alice', 'GET', `/api/v1/hr/${category.key}/${record.id}/`)).json<HealthRecord>()).toEqual(record);

      const put = await call('alice', 'PUT', `/api/v1/hr/${category.key}/${record.id}/`, { ...minimalRecord(category.key), note: 'Replaced' });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json<HealthRecord>()).toMatchObject({ note: 'Replaced', version: 2 });

      const patch = await call('alice', 'PATCH', `/api/v1/hr/${category.key}/${record.id}/`, { private: true });
      expect(patch.statusCode, patch.body).toBe(200);
      expect(patch.json<HealthRecord>()).toMatchObject({ note: 'Replaced', private: true, version: 3 });

      const options = await call('alice', 'OPTIONS', `/api/v1/hr/${category.key}/`);
      expect(options.statusCode).toBe(200);
      const fields = options.json<RecordOptions>().actions.POST;
      for (const field of category.fields) expect(fields[field.name], field.name).toMatchObject({ read_only: false, label: expect.any(String) });
      expect(fields.id).toMatchObject({ read_only: true });

      expect((await call('alice', 'DELETE', `/api/v1/hr/${category.key}/${record.id}/`)).statusCode).toBe(204);
      expect((await call('alice', 'GET', `/api/v1/hr/${category.key}/${record.id}/`)).statusCode).toBe(404);
    });
  }
});

describe('the rules, with the spec messages under their fields', () => {
  it('refuses what is out of range, of the wrong type, an unknown choice, dates in the future or before birth, an end before its start; nothing is written', async () => {
    const bad = await call('alice', 'POST', '/api/v1/hr/condition/', {
      name: 'Migraine',
      intensity: 11,
      frequency: 0,
      verification_status: 'maybe',
      start_date: '2099-01-01',
      end_date: '1970-05-01',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      intensity: ['Ensure this value is less than or equal to 10.'],
      frequency: ['Ensure this value is greater than or equal to 1.'],
      verification_status: ['"maybe" is not a valid choice.'],
      start_date: ['The date cannot be in the future'],
      end_date: ['The selected date is before your birth date'],
    });
    const order = await call('alice', 'POST', '/api/v1/hr/condition/', { name: 'Migraine', start_date: '2020-05-01', start_date_part: 'month', end_date: '2020-04-30' });
    expect(order.json()).toEqual({ end_date: ['The end date cannot be before the start date'] });
    const lab = await call('alice', 'POST', '/api/v1/hr/lab/', { test: 'HbA1c', result: 'high' });
    expect(lab.json()).toEqual({ result: ['A valid number is required.'] });
    const greek = await call('alice', 'POST', '/api/v1/hr/lab/', { test: 'HbA1c', result: 'high', test_date: 'soon' }, 'el');
    expect(greek.json()).toEqual({ result: ['Απαιτείται ένας έγκυρος αριθμός.'], test_date: ['Μη έγκυρη ημερομηνία'] });
    expect((await call('alice', 'GET', '/api/v1/hr/condition/')).json<RecordPage>().count).toBe(0);
    expect((await call('alice', 'GET', '/api/v1/hr/lab/')).json<RecordPage>().count).toBe(0);
  });

  it('keeps a medical date as entered: a year, a month, a day, or only "in the past"', async () => {
    const year = (await call('alice', 'POST', '/api/v1/hr/surgery/', { procedure: 'Appendectomy', date: '1999-07-19', date_part: 'year' })).json<HealthRecord>();
    expect(year).toMatchObject({ date: '1999-01-01', date_part: 'year' });
    const past = (await call('alice', 'POST', '/api/v1/hr/surgery/', { procedure: 'Tonsillectomy', date_part: 'past' })).json<HealthRecord>();
    expect(past).toMatchObject({ date: null, date_part: 'past' });
    const day = (await call('alice', 'POST', '/api/v1/hr/surgery/', { procedure: 'Knee arthroscopy', date: '2021-03-04' })).json<HealthRecord>();
    expect(day).toMatchObject({ date: '2021-03-04', date_part: 'day' });
  });

  it('an unknown category, and a record of another category, are not found', async () => {
    expect((await call('alice', 'GET', '/api/v1/hr/horoscope/')).statusCode).toBe(404);
    const visit = (await call('alice', 'POST', '/api/v1/hr/medicalvisit/', { reason: 'Check-up' })).json<HealthRecord>();
    expect((await call('alice', 'GET', `/api/v1/hr/condition/${visit.id}/`)).statusCode).toBe(404);
    expect((await call('alice', 'DELETE', `/api/v1/hr/condition/${visit.id}/`)).statusCode).toBe(404);
    expect((await call('alice', 'GET', `/api/v1/hr/medicalvisit/${visit.id}/`)).statusCode).toBe(200);
  });
});

describe('listing', () => {
  it('pages, orders, searches and filters by date', async () => {
    const names = ['Asthma', 'Eczema', 'Hay fever', 'Gastritis', 'Anaemia'];
    for (const [i, name] of names.entries()) {
      const res = await call('bob', 'POST', '/api/v1/hr/condition/', { name, start_date: `201${i}-0${i + 1}-10`, intensity: i + 1 });
      expect(res.statusCode, res.body).toBe(201);
    }
    const first = (await call('bob', 'GET', '/api/v1/hr/condition/?page_size=2')).json<RecordPage>();
    expect(first.count).toBe(5);
    expect(first.results.map((r) => r.name)).toEqual(['Anaemia', 'Gastritis']); // newest start date first
    expect(first.previous).toBeNull();
    expect(first.next).toMatch(/\/api\/v1\/hr\/condition\/\?page_size=2&page=2$/);
    const last = (await call('bob', 'GET', '/api/v1/hr/condition/?page_size=2&page=3')).json<RecordPage>();
    expect(last.results.map((r) => r.name)).toEqual(['Asthma']);
    expect(last.next).toBeNull();
    expect(last.previous).toMatch(/page=2/);

    const byName = (await call('bob', 'GET', '/api/v1/hr/condition/?ordering=name')).json<RecordPage>();
    expect(byName.results.map((r) => r.name)).toEqual(['Anaemia', 'Asthma', 'Eczema', 'Gastritis', 'Hay fever']);
    const byIntensity = (await call('bob', 'GET', '/api/v1/hr/condition/?ordering=-intensity')).json<RecordPage>();
    expect(byIntensity.results.map((r) => r.intensity)).toEqual([5, 4, 3, 2, 1]);
    // An ordering it does not know is ignored, as Django REST does.
    expect((await call('bob', 'GET', '/api/v1/hr/condition/?ordering=password')).statusCode).toBe(200);

    const found = (await call('bob', 'GET', '/api/v1/hr/condition/?search=FEV')).json<RecordPage>();
    expect(found.results.map((r) => r.name)).toEqual(['Hay fever']);
    const literal = (await call('bob', 'GET', `/api/v1/hr/condition/?search=${encodeURIComponent('%')}`)).json<RecordPage>();
    expect(literal.count).toBe(0);

    const window = (await call('bob', 'GET', '/api/v1/hr/condition/?date_from=2011-01-01&date_to=2013-12-31')).json<RecordPage>();
    expect(window.results.map((r) => r.name).sort()).toEqual(['Eczema', 'Gastritis', 'Hay fever']);

    expect((await call('bob', 'GET', '/api/v1/hr/condition/?page_size=101')).statusCode).toBe(400);
    expect((await call('bob', 'GET', '/api/v1/hr/condition/?page=0')).statusCode).toBe(400);
  });

  it('searches Greek without minding accents or a final sigma', async () => {
    const created = await call('stranger', 'POST', '/api/v1/hr/condition/', { name: 'Αλλεργική ρινίτιδα', note: 'Άνοιξη και φθινόπωρο' });
    expect(created.statusCode, created.body).toBe(201);
    for (const term of ['ρινιτιδα', 'ΑΛΛΕΡΓΙΚΉ', 'φθινοπωρο', 'ρινίτιδα']) {
      expect((await call('stranger', 'GET', `/api/v1/hr/condition/?search=${encodeURIComponent(term)}`)).json<RecordPage>().count, term).toBe(1);
    }
  });

  it('the summary counts each category and lists the latest changes', async () => {
    const summary = (await call('bob', 'GET', '/api/v1/hr/summary/')).json<RecordSummary>();
    expect(summary.categories).toHaveLength(CATEGORIES.length);
    expect(summary.categories.find((c) => c.category === 'condition')).toMatchObject({ count: 5, latest_date: '2014-05-10', latest_date_part: 'day', name: 'Conditions' });
    expect(summary.recent[0]).toMatchObject({ category: 'condition', title: 'Anaemia' });
  });
});

describe('versions', () => {
  it('every change keeps the previous version: who, when, what changed', async () => {
    const record = (await call('alice', 'POST', '/api/v1/hr/medication/', { code: 'Metformin', dosage: 500, unit: 'mg' })).json<HealthRecord>();
    await call('alice', 'PATCH', `/api/v1/hr/medication/${record.id}/`, { dosage: 850 });
    await call('alice', 'PATCH', `/api/v1/hr/medication/${record.id}/`, { dosage: 850 }); // no change, no version
    const history = (await call('alice', 'GET', `/api/v1/hr/medication/${record.id}/history/`)).json<RecordVersion[]>();
    expect(history.map((v) => v.version)).toEqual([2, 1]);
    expect(history[0]).toMatchObject({ action: 'update', changed_by: { id: people.alice!.id }, changes: [{ field: 'dosage', label: 'Dosage', from: 500, to: 850 }] });
    expect(history[1]!.action).toBe('create');
  });
});

describe('private records and whose record it is', () => {
  it('a private record is its owner’s alone; other patients, admins, super admins and other organisations get 404 on every route', async () => {
    const mine = (await call('alice', 'POST', '/api/v1/hr/allergy/', { code: 'Peanut', private: true })).json<HealthRecord>();
    expect(mine.private).toBe(true);
    const alicePatient = await patientOf('alice');
    for (const who of ['bob', 'admin', 'superadmin', 'stranger']) {
      const q = `?patient=${alicePatient}`;
      expect((await call(who, 'GET', `/api/v1/hr/allergy/${q}`)).statusCode, who).toBe(404);
      expect((await call(who, 'GET', `/api/v1/hr/allergy/${mine.id}/${q}`)).statusCode, who).toBe(404);
      expect((await call(who, 'GET', `/api/v1/hr/allergy/${mine.id}/`)).statusCode, who).toBe(404);
      expect((await call(who, 'PUT', `/api/v1/hr/allergy/${mine.id}/`, { code: 'X' })).statusCode, who).toBe(404);
      expect((await call(who, 'PATCH', `/api/v1/hr/allergy/${mine.id}/${q}`, { code: 'X' })).statusCode, who).toBe(404);
      expect((await call(who, 'DELETE', `/api/v1/hr/allergy/${mine.id}/`)).statusCode, who).toBe(404);
      expect((await call(who, 'GET', `/api/v1/hr/allergy/${mine.id}/history/`)).statusCode, who).toBe(404);
      expect((await call(who, 'POST', `/api/v1/hr/allergy/${q}`, { code: 'X' })).statusCode, who).toBe(404);
      expect((await call(who, 'GET', `/api/v1/hr/summary/${q}`)).statusCode, who).toBe(404);
      expect((await call(who, 'GET', `/api/v1/patients/${alicePatient}`)).statusCode, who).toBe(404);
    }
    expect((await call('alice', 'GET', `/api/v1/hr/allergy/${mine.id}/`)).json<HealthRecord>().code).toBe('Peanut');
    const refusals = await t.db
      .selectFrom('audit_log')
      .select(['action', 'outcome', 'subject'])
      .where('action', '=', 'patient_access')
      .where('subject', '=', `patient:${alicePatient}`)
      .execute();
    expect(refusals.length).toBeGreaterThanOrEqual(4);
    expect(refusals.every((r) => r.outcome === 'denied')).toBe(true);
  });

  it('without a token, 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/hr/condition/' })).statusCode).toBe(401);
  });
});
