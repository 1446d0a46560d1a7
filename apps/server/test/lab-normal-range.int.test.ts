import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bundle, Observation } from '@medplum/fhirtypes';
import type { CreatedShare, ExportLink, HealthRecord, RecordPage, SharedContent, ShareSession } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { pdfWords } from './pdf-text';

/**
 * A lab result's "Within the normal range", on every view of it: a result outside the range says
 * "No" wherever a result inside it says "Yes" (the list, the record, the recipient's page of a
 * share, the PDF export, the FHIR export with the HL7 v3 interpretation A or N).
 */

let t: TestApp;
let alice: BuiltUser;
let token: string;
let outside: HealthRecord;
let inside: HealthRecord;
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, payload?: object, headers: Record<string, string> = {}, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), 'accept-language': lang, ...headers }, ...(payload ? { payload } : {}) });
const publicCall = (method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { 'accept-language': 'en', ...headers }, ...(payload ? { payload } : {}) });

async function create(body: object): Promise<HealthRecord> {
  const res = await call('POST', '/api/v1/hr/lab/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<HealthRecord>();
}

beforeAll(async () => {
  t = await buildTestApp({ seed: false });
  const org = await buildOrganization(t.app, { name: 'lab-range' });
  alice = await buildUser(t.app, { org, dob: '1980-06-15', first_name: 'Alice', last_name: 'Range' });
  token = (await signIn(t.app, { email: alice.email, password: alice.password, org_id: alice.org_id })).access;
  outside = await create({ test: 'Ferritin', result: 8, units: 'ng/mL', within_normal_range: false });
  inside = await create({ test: 'Haemoglobin', result: 13.5, units: 'g/dL', within_normal_range: true });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('a lab result outside the normal range', () => {
  it('is "false" in the list and in the record, "true" for one inside it', async () => {
    const list = (await call('GET', '/api/v1/hr/lab/')).json<RecordPage>();
    expect(list.results.find((r) => r.id === outside.id)).toMatchObject({ within_normal_range: false });
    expect(list.results.find((r) => r.id === inside.id)).toMatchObject({ within_normal_range: true });
    expect((await call('GET', `/api/v1/hr/lab/${outside.id}/`)).json<HealthRecord>()).toMatchObject({ within_normal_range: false });
  });

  it('is flagged abnormal on the recipient’s page of a share, normal the other, in both languages', async () => {
    const created = await call('POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['lab'] });
    expect(created.statusCode, created.body).toBe(201);
    const parts = new URL(created.json<CreatedShare>().url).pathname.split('/');
    const link = { uid: parts.at(-2)!, token: parts.at(-1)! };
    expect((await publicCall('POST', '/api/v1/sharing/public/code/', link)).statusCode).toBe(200);
    await t.app.backgroundMail.drain();
    const mail = (await t.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', 'grey@clinic.example').orderBy('id').execute()).at(-1)!;
    const verified = await publicCall('POST', '/api/v1/sharing/public/verify/', { ...link, code: /\b([0-9]{6})\b/.exec(mail.text_body)![1]! });
    expect(verified.statusCode, verified.body).toBe(200);
    const session = verified.json<ShareSession>().session;
    // Read as the result's flag: abnormal outside the range, normal inside it.
    for (const [lang, no, yes, label] of [
      ['en', 'Abnormal', 'Normal', 'Flag'],
      ['el', 'Εκτός φυσιολογικών ορίων', 'Φυσιολογικό', 'Ένδειξη'],
    ] as const) {
      const res = await publicCall('GET', '/api/v1/sharing/public/content/', undefined, { 'x-share-session': session, 'accept-language': lang });
      expect(res.statusCode, res.body).toBe(200);
      const records = res.json<SharedContent>().sections[0]!.records;
      expect(records.find((r) => r.title === 'Ferritin')!.fields).toContainEqual({ name: 'flag', label, value: no });
      expect(records.find((r) => r.title === 'Haemoglobin')!.fields).toContainEqual({ name: 'flag', label, value: yes });
    }
  });

  it('says "Abnormal" in the PDF export', async () => {
    const res = await call('POST', '/api/v1/hr/export/', { types: ['lab'], record_ids: [outside.id], time_zone: 'Europe/Athens' });
    expect(res.statusCode, res.body).toBe(201);
    const file = await call('GET', res.json<ExportLink>().url);
    expect(file.statusCode).toBe(200);
    const text = pdfWords(file.rawPayload);
    expect(text).toContain('Ferritin');
    expect(text).toContain('Flag Abnormal');
  });

  it('is interpreted A (abnormal) in the FHIR export, N (normal) for the other', async () => {
    const res = await call('GET', '/api/v1/fhir/export/?types=lab');
    expect(res.statusCode, res.body).toBe(200);
    const observations = (res.json<Bundle>().entry ?? []).map((e) => e.resource).filter((r): r is Observation => r?.resourceType === 'Observation');
    const byTest = (name: string) => observations.find((o) => o.code?.text === name)!;
    expect(byTest('Ferritin').interpretation).toEqual([{ coding: [{ system: INTERPRETATION, code: 'A', display: 'Abnormal' }] }]);
    expect(byTest('Haemoglobin').interpretation).toEqual([{ coding: [{ system: INTERPRETATION, code: 'N', display: 'Normal' }] }]);
    // Nothing carries the value twice: the interpretation gives it back.
    expect(JSON.stringify(byTest('Ferritin'))).not.toContain('within_normal_range');
  });
});
