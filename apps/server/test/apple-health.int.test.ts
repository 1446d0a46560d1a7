// On PostgreSQL too (vitest.config.ts): uploads and choices sent at once, which only race on a real server.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppleHealthImport, FhirImportResult } from '@healthbook/shared';
import { writeAppleHealthExport } from './apple-health-samples';
import { useTestApp } from './build-app';
import { bearer, buildGrant, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { multipartBody } from './multipart';

/**
 * An Apple Health export imported (issue 28 §4) through its routes: the upload streamed to disk
 * and read in the background, its progress and counts, the clinical records (R4 and DSTU2)
 * through the FHIR import's preview, the measurements added once as biometrics, the same export
 * again adding nothing, the failures a patient can meet, and who may do what.
 */

const t = useTestApp();
const DAYS = 40;
const users = {} as Record<'alice' | 'other' | 'carerRo' | 'carerFull' | 'foreign', BuiltUser>;
const tokens = {} as Record<keyof typeof users, string>;
let alicePatient: number;
let dir: string;
let exportZip: Buffer;
/** The server's temporary directory in this file (os.tmpdir() reads TMPDIR): where uploads wait to be read. */
let uploads: string;
const tmpBefore = process.env.TMPDIR;

const upload = (who: keyof typeof users, data: Buffer, query = '', lang = 'en', filename = 'export.zip') => {
  const { payload, contentType } = multipartBody([{ name: 'file', filename, contentType: 'application/zip', data }]);
  return t.app.inject({ method: 'POST', url: `/api/v1/fhir/apple-health/${query}`, headers: { ...bearer(tokens[who]), 'content-type': contentType, 'accept-language': lang }, payload });
};
const call = (who: keyof typeof users, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]), 'accept-language': lang }, ...(payload ? { payload } : {}) });

/** Uploads, waits for the reading, answers the import as the page would see it. */
async function uploadAndRead(who: keyof typeof users, data = exportZip, query = '', lang = 'en'): Promise<AppleHealthImport> {
  const res = await upload(who, data, query, lang);
  expect(res.statusCode, res.body).toBe(202);
  const started = res.json<AppleHealthImport>();
  expect(res.headers.location).toBe(`/api/v1/fhir/apple-health/${started.id}/`);
  await t.app.appleHealth.idle();
  const patient = new URLSearchParams(query).get('patient');
  const got = await call(who, 'GET', `/api/v1/fhir/apple-health/${started.id}/${patient ? `?patient=${patient}` : ''}`, undefined, lang);
  expect(got.statusCode, got.body).toBe(200);
  return got.json<AppleHealthImport>();
}

async function biometrics(who: keyof typeof users) {
  const res = await call(who, 'GET', '/api/v1/hr/biometrics/?page_size=1');
  return res.json<{ count: number }>().count;
}

beforeAll(async () => {
  const orgA = await buildOrganization(t.app, { name: 'apple-a' });
  const orgB = await buildOrganization(t.app, { name: 'apple-b' });
  users.alice = await buildUser(t.app, { org: orgA, first_name: 'Alice', last_name: 'Apple', dob: '1980-04-12' });
  users.other = await buildUser(t.app, { org: orgA });
  users.carerRo = await buildUser(t.app, { org: orgA });
  users.carerFull = await buildUser(t.app, { org: orgA });
  users.foreign = await buildUser(t.app, { org: orgB });
  for (const [key, user] of Object.entries(users)) tokens[key as keyof typeof users] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  const patientRow = await t.db.selectFrom('patients').select(['id', 'org_id']).where('user_id', '=', users.alice.id).executeTakeFirstOrThrow();
  alicePatient = patientRow.id;
  await buildGrant(t.app, { patient: patientRow, grantee: users.carerRo, access: 'read-only' });
  await buildGrant(t.app, { patient: patientRow, grantee: users.carerFull, access: 'full' });
  dir = await mkdtemp(join(tmpdir(), 'apple-health-int-'));
  uploads = await mkdtemp(join(tmpdir(), 'apple-health-uploads-'));
  process.env.TMPDIR = uploads;
  await writeAppleHealthExport(join(dir, 'export.zip'), { days: DAYS, stepsPerDay: 20, dstu2: true });
  exportZip = await readFile(join(dir, 'export.zip'));
});

afterAll(async () => {
  await t.app.appleHealth.stop();
  if (tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpBefore;
  await rm(dir, { recursive: true, force: true });
  await rm(uploads, { recursive: true, force: true });
});

describe('an Apple Health export', () => {
  let imp: AppleHealthImport;

  it('is read in the background: its measurements counted, thinned to one a day, and its file removed', async () => {
    imp = await uploadAndRead('alice', exportZip, '?time_zone=Europe/Athens');
    expect(imp.status, JSON.stringify(imp.error)).toBe('ready');
    expect(imp).toMatchObject({ file_name: 'export.zip', thin: 'day', time_zone: 'Europe/Athens', error: null, measurements: null });
    expect(imp.progress.done).toBe(imp.progress.total);
    expect(imp.progress.total).toBeGreaterThan(100_000);
    const counts = imp.counts!;
    expect(counts.measures.weight).toEqual({ read: DAYS * 2, kept: DAYS, refused: 0, from: '2023-01-01', to: '2023-02-09' });
    expect(counts.measures.heart_rate).toMatchObject({ read: DAYS * 5, kept: DAYS });
    expect(counts.measures.blood_pressure).toMatchObject({ kept: DAYS, refused: 0 });
    // Four R4 records and two DSTU2 ones; the broken file is counted, and said.
    expect(counts.clinical).toEqual({ read: 6, failed: 1 });
    expect(counts.problems.join('\n')).toContain('Observation-broken.json');
    // The upload went to a temporary file, gone once read.
    expect(await readdir(uploads)).toEqual([]);
  });

  it('gives its clinical records, DSTU2 read as R4, to the FHIR import’s preview and accept', async () => {
    const res = await call('alice', 'GET', `/api/v1/fhir/apple-health/${imp.id}/clinical/`);
    expect(res.statusCode, res.body).toBe(200);
    const { bundle } = res.json<{ bundle: { resourceType: string; entry: Array<{ resource: { resourceType: string } }> } }>();
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.entry.map((e) => e.resource.resourceType).sort()).toEqual(['AllergyIntolerance', 'Condition', 'Condition', 'Immunization', 'MedicationRequest', 'Observation']);
    const preview = (await call('alice', 'POST', '/api/v1/fhir/import/', { bundle })).json<FhirImportResult>();
    expect(preview.items.map((i) => [i.category, i.status])).toEqual(
      expect.arrayContaining([
        ['allergy', 'new'],
        ['condition', 'new'],
        ['immunization', 'new'],
        ['lab', 'new'],
        ['medication', 'new'],
      ]),
    );
    expect(preview.items.find((i) => i.category === 'medication')?.title).toContain('Amlodipine');
    expect(preview.items.filter((i) => i.status === 'new')).toHaveLength(6);
    const accepted = (await call('alice', 'POST', '/api/v1/fhir/import/', { bundle, accept: preview.items.map((i) => i.key) })).json<FhirImportResult>();
    expect(accepted.imported).toBe(6);
  });

  it('adds the chosen measurements as biometrics once, even when asked several times at once', async () => {
    const before = await biometrics('alice');
    const answers = await Promise.all(Array.from({ length: 5 }, () => call('alice', 'POST', `/api/v1/fhir/apple-health/${imp.id}/measurements/`, { measures: ['weight', 'blood_pressure'] })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([202, 409, 409, 409, 409]);
    const winner = answers.find((a) => a.statusCode === 202)!.json<AppleHealthImport>();
    expect(winner).toMatchObject({ status: 'importing', progress: { total: DAYS * 2 } });
    expect(answers.find((a) => a.statusCode === 409)!.json<{ detail: string }>().detail).toMatch(/cannot be added now/);
    await t.app.appleHealth.idle();
    const done = (await call('alice', 'GET', `/api/v1/fhir/apple-health/${imp.id}/`)).json<AppleHealthImport>();
    expect(done).toMatchObject({ status: 'done', progress: { done: DAYS * 2, total: DAYS * 2 }, measurements: { imported: DAYS * 2, duplicates: 0, skipped: 0, invalid: 0, measures: ['weight', 'blood_pressure'] } });
    expect(await biometrics('alice')).toBe(before + DAYS * 2);
    // A day's reading as a patient reads it: the weight in kilograms, on its day in Athens.
    const list = (await call('alice', 'GET', '/api/v1/hr/biometrics/?page_size=100&ordering=measured_on')).json<{ results: Array<{ measure: string; value: number; diastolic: number | null; measured_on: string }> }>().results;
    expect(list.find((r) => r.measure === 'weight' && r.measured_on === '2023-01-01')?.value).toBeGreaterThan(69);
    expect(list.find((r) => r.measure === 'blood_pressure' && r.measured_on === '2023-01-01')).toMatchObject({ value: 124, diastolic: 81 });
  });

  it('imported again adds nothing: each reading is known by its measurement and day', async () => {
    const again = await uploadAndRead('alice', exportZip, '?time_zone=Europe/Athens');
    const before = await biometrics('alice');
    expect((await call('alice', 'POST', `/api/v1/fhir/apple-health/${again.id}/measurements/`, { measures: ['weight', 'blood_pressure', 'height'] })).statusCode).toBe(202);
    await t.app.appleHealth.idle();
    const done = (await call('alice', 'GET', `/api/v1/fhir/apple-health/${again.id}/`)).json<AppleHealthImport>();
    expect(done.measurements).toMatchObject({ imported: DAYS, duplicates: DAYS * 2 });
    expect(await biometrics('alice')).toBe(before + DAYS);
  });

  it('one at a time per patient: uploads sent at once make one import', async () => {
    const answers = await Promise.all(Array.from({ length: 3 }, () => upload('alice', exportZip)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses, answers.map((a) => a.body).join('\n')).toEqual([202, 409, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json<{ detail: string }>().detail).toMatch(/already being imported/);
    await t.app.appleHealth.idle();
    // Once it is read, the next may start.
    expect((await upload('alice', exportZip)).statusCode).toBe(202);
    await t.app.appleHealth.idle();
  });
});

describe('what can go wrong', () => {
  it('a file that is not a zip fails, said in the reader’s language', async () => {
    const failed = await uploadAndRead('alice', Buffer.from('<HealthData></HealthData>'), '', 'el');
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'not_zip', message: expect.stringContaining('zip') });
    expect(failed.error!.message).toMatch(/[α-ω]/);
    expect((await call('alice', 'GET', `/api/v1/fhir/apple-health/${failed.id}/clinical/`)).statusCode).toBe(409);
    expect((await call('alice', 'POST', `/api/v1/fhir/apple-health/${failed.id}/measurements/`, { measures: ['weight'] })).statusCode).toBe(409);
  });

  it('no file, an empty one, a bad time zone or no measurement chosen: 400, nothing started', async () => {
    const { payload, contentType } = multipartBody([{ name: 'other', filename: 'x.zip', contentType: 'application/zip', data: exportZip }]);
    const wrongField = await t.app.inject({ method: 'POST', url: '/api/v1/fhir/apple-health/', headers: { ...bearer(tokens.alice), 'content-type': contentType }, payload });
    expect(wrongField.statusCode).toBe(400);
    expect((await upload('alice', Buffer.alloc(0))).statusCode).toBe(400);
    const zone = await upload('alice', exportZip, '?time_zone=Mars/Olympus');
    expect(zone.statusCode).toBe(400);
    expect(zone.json()).toMatchObject({ time_zone: [expect.any(String)] });
    const json = await call('alice', 'POST', '/api/v1/fhir/apple-health/', { file: 'x' });
    expect(json.statusCode).toBe(400);
    // None of them left an import, or a file, behind.
    expect(await readdir(uploads)).toEqual([]);
    const rows = await t.db.selectFrom('apple_health_imports').select('status').where('patient_id', '=', alicePatient).where('status', '=', 'reading').execute();
    expect(rows).toEqual([]);
    const ready = await uploadAndRead('alice');
    expect((await call('alice', 'POST', `/api/v1/fhir/apple-health/${ready.id}/measurements/`, { measures: [] })).statusCode).toBe(400);
  });

  it('an import whose process ended is told as interrupted, and frees the patient for the next', async () => {
    const ready = await uploadAndRead('alice');
    await t.db.updateTable('apple_health_imports').set({ status: 'reading', heartbeat_at: new Date(Date.now() - 10 * 60_000) }).where('id', '=', ready.id).execute();
    const told = (await call('alice', 'GET', `/api/v1/fhir/apple-health/${ready.id}/`)).json<AppleHealthImport>();
    expect(told).toMatchObject({ status: 'failed', error: { code: 'interrupted', message: expect.stringContaining('interrupted') } });
    expect((await upload('alice', exportZip)).statusCode).toBe(202);
    await t.app.appleHealth.idle();
  });

  it('discarded: gone', async () => {
    const ready = await uploadAndRead('alice');
    expect((await call('alice', 'DELETE', `/api/v1/fhir/apple-health/${ready.id}/`)).statusCode).toBe(204);
    expect((await call('alice', 'GET', `/api/v1/fhir/apple-health/${ready.id}/`)).statusCode).toBe(404);
    expect((await call('alice', 'DELETE', `/api/v1/fhir/apple-health/${ready.id}/`)).statusCode).toBe(404);
  });
});

describe('who may', () => {
  let alices: AppleHealthImport;
  beforeAll(async () => {
    alices = await uploadAndRead('alice');
  });

  it('another patient, another organisation: 404, and nothing of it is told', async () => {
    for (const who of ['other', 'foreign'] as const) {
      expect((await call(who, 'GET', `/api/v1/fhir/apple-health/${alices.id}/`)).statusCode).toBe(404);
      expect((await call(who, 'GET', `/api/v1/fhir/apple-health/${alices.id}/clinical/`)).statusCode).toBe(404);
      expect((await call(who, 'POST', `/api/v1/fhir/apple-health/${alices.id}/measurements/`, { measures: ['weight'] })).statusCode).toBe(404);
      expect((await call(who, 'DELETE', `/api/v1/fhir/apple-health/${alices.id}/`)).statusCode).toBe(404);
      expect((await upload(who, exportZip, `?patient=${alicePatient}`)).statusCode).toBe(404);
    }
  });

  it('a read-only carer may not import; a full-access carer may, for the patient', async () => {
    expect((await upload('carerRo', exportZip, `?patient=${alicePatient}`)).statusCode).toBe(403);
    expect((await call('carerRo', 'GET', `/api/v1/fhir/apple-health/${alices.id}/?patient=${alicePatient}`)).statusCode).toBe(403);
    // The carer's own record has no such import.
    expect((await call('carerFull', 'GET', `/api/v1/fhir/apple-health/${alices.id}/`)).statusCode).toBe(404);
    const theirs = await uploadAndRead('carerFull', exportZip, `?patient=${alicePatient}`);
    expect(theirs.status).toBe('ready');
    const row = await t.db.selectFrom('apple_health_imports').select(['patient_id', 'created_by']).where('id', '=', theirs.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ patient_id: alicePatient, created_by: users.carerFull.id });
    // Reading it is on the patient's trail, as the carer's.
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('actor_user_id', '=', users.carerFull.id).where('action', '=', 'document_convert').execute();
    expect(audit.map((a) => a.detail)).toContainEqual(expect.objectContaining({ format: 'apple-health', import: theirs.id }));
  });
});
