// On PostgreSQL too (vitest.config.ts): imports of one bundle sent at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, FHIR_IMPORT_MAX_BYTES, type FeatureEntry, type FhirImportResult, type HealthRecord, type RecordPage, type RecordVersion } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { FULL_RECORDS, fhirValidator, syntheaBundle } from './fhir-samples';

/**
 * FHIR R4 export and import through the routes: the exported Bundle validates against the R4
 * definitions; private records only when asked, by the owner; export -> import into another
 * patient gives the same records; importing again adds nothing (also two imports at once); a
 * Synthea-style patient imports after a preview, unknown resources listed as skipped; a bad
 * bundle is a 400 that names what is wrong, with nothing written; other patients and
 * organisations are refused; the feature off is a 403.
 */

type Bundle = { resourceType: string; type: string; entry: Array<{ fullUrl: string; resource: Record<string, unknown> & { resourceType: string; id: string } }> };

let t: TestApp;
let validate: (resource: Record<string, unknown>) => void;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  validate = await fhirValidator();
  const hb = await t.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow();
  const other = await buildOrganization(t.app, { name: 'fhir-other' });
  people.alice = await buildUser(t.app, { org: hb, dob: '1980-06-15', first_name: 'Alice', last_name: 'Ανδρέου', gender: 'female' });
  people.bob = await buildUser(t.app, { org: hb, dob: '1975-01-01' });
  people.carol = await buildUser(t.app, { org: hb, dob: '1984-03-17' });
  people.dave = await buildUser(t.app, { org: hb, dob: '1970-01-01' });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  people.otherAdmin = await buildUser(t.app, { org: other, roles: ['org_admin'] });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  // Alice's record: every category, every way a field can be; two of them private.
  for (const [i, { category, values }] of FULL_RECORDS.entries()) {
    const res = await call('alice', 'POST', `/api/v1/hr/${category}/`, { ...values, private: i === 0 || category === 'travelhistory' });
    expect(res.statusCode, `${category} ${res.body}`).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST';
const call = (who: string, method: Method, url: string, payload?: object | string, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang, ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}) }, ...(payload !== undefined ? { payload } : {}) });
const patientOf = async (who: string) => (await call(who, 'GET', '/api/v1/patients/')).json<Array<{ patient_id: number }>>()[0]!.patient_id;
const exportOf = async (who: string, query = '') => {
  const res = await call(who, 'GET', `/api/v1/fhir/export/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Bundle>();
};
const importInto = (who: string, bundle: unknown, accept?: string[], lang = 'en') => call(who, 'POST', '/api/v1/fhir/import/', { bundle, ...(accept ? { accept } : {}) }, lang);
const keysOf = (result: FhirImportResult, status = 'new') => result.items.filter((i) => i.status === status).map((i) => i.key);

/** Every record of a patient, as its owner reads it, without what names this copy (id, times, version). */
async function recordsOf(who: string): Promise<string[]> {
  const all: string[] = [];
  for (const category of CATEGORIES) {
    const page = (await call(who, 'GET', `/api/v1/hr/${category.key}/?page_size=100`)).json<RecordPage>();
    for (const r of page.results) {
      const { id: _id, patient: _patient, created_at: _c, updated_at: _u, version: _v, attachments: _a, allergy_id: _al, ...content } = r as HealthRecord;
      all.push(JSON.stringify(Object.fromEntries(Object.entries(content).sort(([a], [b]) => a.localeCompare(b)))));
    }
  }
  return all.sort();
}
const countOf = async (who: string) => (await recordsOf(who)).length;

describe('GET /api/v1/fhir/export/', () => {
  it('answers a collection Bundle that validates against the R4 definitions: the Patient first, then one resource per record', async () => {
    const res = await call('alice', 'GET', '/api/v1/fhir/export/');
    expect(res.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="alice-fhir.json"; filename*=UTF-8''${encodeURIComponent('alice-ανδρεου-fhir.json')}`);
    const bundle = res.json<Bundle>();
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    expect(() => validate(bundle)).not.toThrow();
    const [patient, ...records] = bundle.entry;
    expect(patient!.resource).toMatchObject({ resourceType: 'Patient', name: [{ family: 'Ανδρέου', given: ['Alice'] }], birthDate: '1980-06-15', gender: 'female' });
    expect(patient!.fullUrl).toBe(`urn:uuid:${patient!.resource.id}`);
    // Private ones are left out unless asked for.
    const visible = FULL_RECORDS.filter(({ category }, i) => i !== 0 && category !== 'travelhistory');
    expect(records).toHaveLength(visible.length);
    for (const { fullUrl, resource } of records) {
      expect(() => validate(resource), JSON.stringify(resource)).not.toThrow();
      expect(fullUrl).toBe(`urn:uuid:${resource.id}`);
      expect(resource.subject ?? resource.patient).toEqual({ reference: patient!.fullUrl });
      expect(resource.meta).toMatchObject({ lastUpdated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), tag: [{ system: 'urn:healthbook:category', code: expect.any(String) }] });
      expect(resource.identifier).toContainEqual({ system: 'urn:healthbook:record', value: expect.stringMatching(/^healthbook\.[0-9a-f]{10}\/\d+$/) });
    }
    const types = (category: string) => records.filter((e) => (e.resource.meta as { tag: Array<{ code: string }> }).tag[0]!.code === category).map((e) => e.resource.resourceType);
    expect(types('biometrics').every((type) => type === 'Observation')).toBe(true);
    expect(types('medicalvisit')).toEqual(['Encounter', 'Encounter']);
    // Partial dates and "In the past" as FHIR has them.
    const surgery = records.find((e) => e.resource.resourceType === 'Procedure' && (e.resource.code as { text: string }).text === 'Appendectomy')!.resource;
    expect(surgery.performedDateTime).toBe('1999');
    const tetanus = records.find((e) => e.resource.resourceType === 'Immunization' && (e.resource.vaccineCode as { text: string }).text === 'Tetanus')!.resource;
    expect(tetanus.occurrenceString).toBe('In the past');
    // The same records are the same resources in every export.
    expect((await exportOf('alice')).entry.map((e) => e.fullUrl)).toEqual(bundle.entry.map((e) => e.fullUrl));
  });

  it('holds private records only when their owner asks, labelled restricted; filters by category; refuses an unknown one', async () => {
    const all = await exportOf('alice', '?include_private=true');
    expect(all.entry).toHaveLength(FULL_RECORDS.length + 1);
    const restricted = all.entry.filter((e) => JSON.stringify(e.resource.meta).includes('"security"'));
    expect(restricted.map((e) => e.resource.resourceType).sort()).toEqual(['Condition', 'Observation', 'Observation']);
    const some = await exportOf('alice', '?types=condition,lab');
    expect(some.entry.slice(1).map((e) => e.resource.resourceType)).toEqual(['Condition', ...FULL_RECORDS.filter((r) => r.category === 'lab').map(() => 'Observation')]);
    const unknown = await call('alice', 'GET', '/api/v1/fhir/export/?types=condition,horoscope');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ types: ['This is not a health record category.'] });
  });
});

describe('POST /api/v1/fhir/import/', () => {
  it('export -> import into another patient gives the same records, each with its first version; again, nothing is added', async () => {
    const bundle = await exportOf('alice', '?include_private=true');
    const preview = (await importInto('bob', bundle)).json<FhirImportResult>();
    expect(preview).toMatchObject({ preview: true, imported: 0, duplicates: 0, skipped: 1, invalid: 0 });
    expect(preview.items[0]).toMatchObject({ key: '0:Patient', resource_type: 'Patient', status: 'skipped', category: null, title: 'Alice Ανδρέου' });
    expect(preview.items[1]).toMatchObject({ key: `1:${bundle.entry[1]!.resource.resourceType}`, status: 'new', category: expect.any(String), title: expect.any(String) });
    expect(await countOf('bob')).toBe(0);

    const done = await importInto('bob', bundle, keysOf(preview));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<FhirImportResult>()).toMatchObject({ preview: false, imported: FULL_RECORDS.length, duplicates: 0, skipped: 1 });
    expect(await recordsOf('bob')).toEqual(await recordsOf('alice'));

    const asthma = (await call('bob', 'GET', '/api/v1/hr/condition/?search=asthma')).json<RecordPage>().results[0]!;
    const history = (await call('bob', 'GET', `/api/v1/hr/condition/${asthma.id}/history/`)).json<RecordVersion[]>();
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ version: 1, action: 'create', changed_by: { id: people.bob!.id } });
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('actor_user_id', '=', people.bob!.id).where('action', 'in', ['record_create', 'fhir_import']).execute();
    expect(audit.filter((a) => a.action === 'record_create')).toHaveLength(FULL_RECORDS.length);
    expect(audit.find((a) => a.action === 'fhir_import')?.detail).toMatchObject({ imported: FULL_RECORDS.length });

    // The same bundle again: every record a duplicate, nothing added.
    const again = (await importInto('bob', bundle, keysOf(preview))).json<FhirImportResult>();
    expect(again).toMatchObject({ imported: 0, duplicates: FULL_RECORDS.length });
    expect(again.items[1]).toMatchObject({ status: 'duplicate', reason: 'Imported before.' });
    expect(await countOf('bob')).toBe(FULL_RECORDS.length);

    // Bob's export (records of his own now) back into Alice's record: she has them all.
    const back = (await importInto('alice', await exportOf('bob', '?include_private=true'))).json<FhirImportResult>();
    expect(back).toMatchObject({ duplicates: FULL_RECORDS.length, imported: 0 });
    // And Alice's own export back into hers.
    const own = (await importInto('alice', bundle, [], 'el')).json<FhirImportResult>();
    expect(own.duplicates).toBe(FULL_RECORDS.length);
    expect(own.items[1]!.reason).toBe('Υπάρχει ήδη στον ιατρικό σας φάκελο.');
  });

  it('imports a Synthea-style patient after the preview: only what is ticked, the rest listed as skipped with why', async () => {
    const bundle = syntheaBundle();
    const preview = (await importInto('carol', bundle)).json<FhirImportResult>();
    const byStatus = (status: string) => preview.items.filter((i) => i.status === status).map((i) => `${i.resource_type}: ${i.title}`);
    expect(byStatus('skipped').sort()).toEqual(
      [
        'Claim: Claim',
        'DiagnosticReport: Lipid panel with direct LDL - Serum or Plasma',
        'ExplanationOfBenefit: ExplanationOfBenefit',
        'Medication: 1 ML medroxyprogesterone acetate 150 MG/ML Injection',
        'Observation: Body mass index (BMI) [Ratio]',
        'Observation: Lipid panel with direct LDL - Serum or Plasma',
        'Observation: Patient Health Questionnaire 2 item (PHQ-2) [Reported]',
        'Observation: Respiratory rate',
        'Patient: Adela471 Lueilwitz711',
      ].sort(),
    );
    expect(preview.items.find((i) => i.resource_type === 'Claim')).toMatchObject({ category: null, reason: 'Claim is not kept in the health record.' });
    expect(byStatus('invalid')).toEqual([]);
    expect(preview).toMatchObject({ skipped: 9, invalid: 0, duplicates: 0 });
    const fresh = preview.items.filter((i) => i.status === 'new');
    expect(fresh).toHaveLength(17);
    expect(fresh.find((i) => i.resource_type === 'Condition')).toMatchObject({ category: 'condition', title: 'Viral sinusitis (disorder)', date: '11 March 2015' });

    // The patient unticks the procedure.
    const procedure = fresh.find((i) => i.resource_type === 'Procedure')!.key;
    const done = (await importInto('carol', bundle, keysOf(preview).filter((k) => k !== procedure))).json<FhirImportResult>();
    expect(done).toMatchObject({ imported: 16, skipped: 9 });
    const list = async (category: string) => (await call('carol', 'GET', `/api/v1/hr/${category}/?page_size=100`)).json<RecordPage>().results;
    expect(await list('procedure')).toEqual([]);
    expect(await list('condition')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Viral sinusitis (disorder)', verification_status: 'confirmed', start_date: '2015-03-11', start_date_part: 'day', end_date: '2015-03-25' }),
        expect.objectContaining({ name: 'Essential hypertension (disorder)', start_date: '2021-09-02', end_date: null }),
      ]),
    );
    const biometrics = await list('biometrics');
    expect(biometrics.map((b) => [b.measure, b.value, b.diastolic, b.measured_on]).sort()).toEqual([
      ['blood_pressure', 128, 82, '2021-09-02'],
      ['heart_rate', 72, null, '2021-09-02'],
      ['height', 1.653, null, '2021-09-02'],
      ['weight', 70.2, null, '2021-09-02'],
    ]);
    expect((await list('lab')).map((l) => [l.test, l.result, l.units]).sort()).toEqual([
      ['Glucose [Mass/volume] in Blood', 95, 'mg/dL'],
      ['Hemoglobin A1c/Hemoglobin.total in Blood', 5.6, '%'],
    ]);
    expect(await list('medication')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'lisinopril 10 MG Oral Tablet', frequency: 1, repeat: 'days', start_date: '2021-09-02', stopped: false, dosage: 1 }),
        // Every 8 hours, as the prescription says.
        expect.objectContaining({ code: '1 ML medroxyprogesterone acetate 150 MG/ML Injection', times: 1, frequency: 8, repeat: 'hours', stopped: true }),
        expect.objectContaining({ code: 'Oral Vitamin D3 1000 UNT', dosage: 1000, unit: 'iu', start_date: '2019-05-01', start_date_part: 'month' }),
      ]),
    );
    expect(await list('allergy')).toEqual([expect.objectContaining({ code: 'Latex allergy (disorder)', clinical_status: 'active', verification_status: 'confirmed', type: 'allergy', category: 'environment', criticality: 'low', reaction: 'Wheal (finding)', reaction_severity: 'mild', recorded_date: '2012-06-18' })]);
    expect((await list('medicalvisit')).map((v) => [v.reason, v.date, v.professional]).sort()).toEqual([
      ['General examination of patient (procedure)', '2021-09-02', null],
      ['Viral sinusitis (disorder)', '2015-03-11', 'Dr. Alberto639 Hahn503'],
    ]);
    expect(await list('immunization')).toEqual([expect.objectContaining({ vaccine_name: 'Influenza, seasonal, injectable, preservative free', date: '2021-09-02', stopped: false })]);
    expect(await list('socialhistory')).toEqual([expect.objectContaining({ category: 'tobacco', note: 'Never smoked tobacco (finding)' })]);

    // The same file again: what was imported is a duplicate; the procedure left out comes now.
    const again = (await importInto('carol', bundle)).json<FhirImportResult>();
    expect(again).toMatchObject({ duplicates: 16, skipped: 9 });
    expect(keysOf(again)).toEqual([procedure]);
    expect((await importInto('carol', bundle, keysOf(again))).json<FhirImportResult>()).toMatchObject({ imported: 1, duplicates: 16 });
    expect(await list('procedure')).toEqual([expect.objectContaining({ procedure: 'Medication reconciliation (procedure)', date: '2021-09-02' })]);
  });

  it('two imports of the same bundle at once add its records once', async () => {
    const bundle = syntheaBundle();
    const keys = keysOf((await importInto('dave', bundle)).json<FhirImportResult>());
    const results = await Promise.all([importInto('dave', bundle, keys), importInto('dave', bundle, keys), importInto('dave', bundle, keys)]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const answers = results.map((r) => r.json<FhirImportResult>());
    expect(answers.reduce((n, a) => n + a.imported, 0)).toBe(17);
    expect(await countOf('dave')).toBe(17);
  });

  it('lists a record that breaks its category’s rules as invalid, with why', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Condition', code: { text: 'Future flu' }, onsetDateTime: '2999-01-01' } },
        { resource: { resourceType: 'Observation', status: 'final', category: [{ coding: [{ code: 'laboratory' }] }], code: { text: 'Urine colour' }, valueString: 'yellow' } },
        { resource: { resourceType: 'Condition', onsetDateTime: '2020-01-01' } },
      ],
    };
    const preview = (await importInto('dave', bundle)).json<FhirImportResult>();
    expect(preview.items.map((i) => [i.status, i.title, i.reason])).toEqual([
      ['invalid', 'Future flu', 'Start date: The date cannot be in the future'],
      ['invalid', 'Urine colour', 'Result: A valid number is required.'],
      ['invalid', 'Condition', 'Condition: This field is required.'],
    ]);
    expect((await importInto('dave', bundle, preview.items.map((i) => i.key))).json<FhirImportResult>()).toMatchObject({ imported: 0, invalid: 3 });
  });
});

describe('a bad bundle: 400 naming what is wrong, nothing imported', () => {
  const expect400 = async (payload: object | string, detail?: string | RegExp, lang = 'en') => {
    const before = await countOf('bob');
    const res = await call('bob', 'POST', '/api/v1/fhir/import/', payload, lang);
    expect(res.statusCode, res.body).toBe(400);
    if (detail) expect(res.json<{ detail: string }>().detail).toMatch(detail);
    expect(await countOf('bob')).toBe(before);
    return res.json<Record<string, string[] | string>>();
  };
  const entry = (resource: object) => ({ resourceType: 'Bundle', type: 'collection', entry: [{ resource: { resourceType: 'Condition', code: { text: 'Fine' } } }, { resource }] });

  it('not a JSON object, not a Bundle, not JSON at all', async () => {
    expect(await expect400('[1, 2]')).toEqual({ non_field_errors: [expect.any(String)] });
    expect(await expect400({ bundle: 'a string' })).toEqual({ bundle: [expect.any(String)] });
    expect(await expect400({ bundle: { type: 'collection' } })).toEqual({ 'bundle.resourceType': ['This field is required.'] });
    await expect400({ bundle: { resourceType: 'Patient', name: [{ family: 'X' }] }, accept: ['0:Patient'] }, 'This is not a FHIR Bundle (its resourceType is "Patient").');
    await expect400('{"bundle": {"resourceType": "Bundle"', 'The request body is not valid JSON.');
  });

  it('a resource without a resourceType, an entry without a resource, a malformed element: each named, in the reader’s language', async () => {
    const accept = ['0:Condition', '1:Condition'];
    await expect400({ bundle: entry({ code: { text: 'No type' } }), accept }, 'The bundle holds invalid resources; nothing was imported. entry 1 resourceType: has no resourceType');
    await expect400({ bundle: { resourceType: 'Bundle', type: 'collection', entry: [{ fullUrl: 'urn:uuid:1' }] }, accept }, /entry 0 resource: has no resource/);
    await expect400({ bundle: entry({ resourceType: 'Condition', code: { text: 'Flu' }, onsetDateTime: '11/03/2015' }), accept }, /entry 1 \(Condition\) onsetDateTime: is not a valid FHIR date/);
    await expect400({ bundle: entry({ resourceType: 'Observation', code: 'glucose', valueQuantity: { value: '5.4' } }), accept }, /entry 1 \(Observation\) code: must be of FHIR type object; entry 1 \(Observation\) valueQuantity\.value: must be of FHIR type decimal/);
    await expect400({ bundle: entry({ resourceType: 'Condition', code: { text: '' } }), accept }, 'καταχώριση 1 (Condition) code.text: είναι κενό', 'el');
    await expect400({ bundle: { resourceType: 'Bundle', entry: [] } }, 'Bundle type: must be of FHIR type code');
  });

  it('over 20 MB', async () => {
    const filler = 'x'.repeat(1000);
    const big = (bytes: number) => ({ resourceType: 'Bundle', type: 'collection', entry: Array.from({ length: Math.ceil(bytes / 1050) }, () => ({ resource: { resourceType: 'Basic', code: { text: filler } } })) });
    // Beyond the body limit (the bundle and a margin for the accepted keys)...
    await expect400({ bundle: big(FHIR_IMPORT_MAX_BYTES + 1.5 * 1024 * 1024) }, 'The bundle is too large. The limit is 20 MB.');
    // ...and a bundle over 20 MB inside it.
    await expect400({ bundle: big(FHIR_IMPORT_MAX_BYTES + 200 * 1024) }, 'The bundle is too large. The limit is 20 MB.');
    const greek = await call('bob', 'POST', '/api/v1/fhir/import/', { bundle: big(FHIR_IMPORT_MAX_BYTES + 1.5 * 1024 * 1024) }, 'el');
    expect(greek.json()).toEqual({ detail: 'Το αρχείο είναι πολύ μεγάλο. Το όριο είναι 20 MB.' });
  });
});

describe('whose record', () => {
  it('another patient, and another organisation, are not found (404), to export or to import into', async () => {
    const bob = await patientOf('bob');
    expect((await call('alice', 'GET', `/api/v1/fhir/export/?patient=${bob}`)).statusCode).toBe(404);
    expect((await call('alice', 'POST', '/api/v1/fhir/import/', { bundle: syntheaBundle(), patient: bob })).statusCode).toBe(404);
    expect((await call('stranger', 'GET', `/api/v1/fhir/export/?patient=${bob}`)).statusCode).toBe(404);
    expect((await call('stranger', 'POST', '/api/v1/fhir/import/', { bundle: syntheaBundle(), patient: bob, accept: ['3:Encounter'] })).statusCode).toBe(404);
    // The stranger's own export holds nothing of anyone else's.
    expect((await exportOf('stranger')).entry).toHaveLength(1);
  });

  it('needs a token (401), and the health-records feature (403 when its organisation turns it off)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/fhir/export/' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/fhir/import/', payload: { bundle: syntheaBundle() } })).statusCode).toBe(401);
    const other = people.otherAdmin!.org_id;
    const list = (await call('otherAdmin', 'POST', '/api/v1/features/get-features/', { organization_id: other })).json<FeatureEntry[]>();
    const feature = list.find((f) => f.key === 'health-records')!;
    const off = await t.app.inject({ method: 'PUT', url: `/api/v1/features/${feature.id}/`, headers: bearer(tokens.otherAdmin!), payload: { organization_id: other, feature_status: 'disabled' } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await call('stranger', 'GET', '/api/v1/fhir/export/')).statusCode).toBe(403);
    const refused = await call('stranger', 'POST', '/api/v1/fhir/import/', { bundle: syntheaBundle() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This feature is turned off for your organisation.' });
  });
});
