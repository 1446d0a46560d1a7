import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate, type AccessLogPage, type Share } from '@healthbook/shared';
import { PATIENT_TABLES } from '../src/modules/patients/patient-tables';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildGrant, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { minimalRecord } from './record-samples';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * The one door to a patient's data (issue 24): what the patients policy's scope closes that was
 * open before — every table declared with its area, private marking by the owner only, a
 * carer's shares ending with their access (the patient told, the list saying who made them),
 * and reads of who the patient is on the patient's trail.
 */

let sink: SmtpSink;
let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};
let patientId = 0;
let orgId = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url } });
  const org = await buildOrganization(t.app, { name: 'door-org', org_name: 'Door Clinic' });
  orgId = org.id;
  people.owner = await buildUser(t.app, { org, first_name: 'Olga', last_name: 'Owner', email: 'olga@door.test' });
  people.full = await buildUser(t.app, { org, first_name: 'Fay', last_name: 'Full', email: 'fay@door.test' });
  people.other = await buildUser(t.app, { org, first_name: 'Otto', last_name: 'Other', email: 'otto@door.test' });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
  const patient = await t.db.selectFrom('patients').select(['id', 'org_id']).where('user_id', '=', people.owner!.id).executeTakeFirstOrThrow();
  patientId = patient.id;
  await buildGrant(t.app, { patient, grantee: people.full!, access: 'full' });
  await buildGrant(t.app, { patient, grantee: people.other!, access: 'full' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': 'en', ...(who === 'owner' ? {} : { 'x-patient-id': String(patientId) }) }, ...(payload ? { payload } : {}) });

describe('every table of patient data is declared once, with its area', () => {
  it('each table with a patient_id column is in PATIENT_TABLES (and nothing stale is)', async () => {
    const { rows } = await sql<{ table_name: string }>`select distinct table_name from information_schema.columns where column_name = 'patient_id' and table_schema = current_schema()`.execute(t.db);
    const withPatient = rows.map((r) => r.table_name);
    const undeclared = withPatient.filter((name) => !(name in PATIENT_TABLES));
    expect(undeclared, 'declare these tables in modules/patients/patient-tables.ts').toEqual([]);
    const { rows: all } = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema()`.execute(t.db);
    const existing = new Set(all.map((r) => r.table_name));
    expect(Object.keys(PATIENT_TABLES).filter((name) => !existing.has(name))).toEqual([]);
    // A table reached through another names one that is declared.
    for (const [name, table] of Object.entries(PATIENT_TABLES)) if ('through' in table && table.through) expect(PATIENT_TABLES[table.through], name).toBeDefined();
  });
});

describe('private: only the patient marks it', () => {
  it('a carer with full access cannot mark a record private or public (403), nor create a private one; the owner can', async () => {
    const made = await call('owner', 'POST', '/api/v1/hr/condition/', minimalRecord('condition'));
    expect(made.statusCode).toBe(201);
    const id = made.json<{ id: number }>().id;
    const hide = await call('full', 'PATCH', `/api/v1/hr/condition/${id}/`, { private: true });
    expect(hide.statusCode).toBe(403);
    expect(hide.json<{ detail: string }>().detail).toBe(translate('en', 'errors:privateOwnerOnly'));
    const created = await call('full', 'POST', '/api/v1/hr/condition/', { ...minimalRecord('condition'), private: true });
    expect(created.statusCode).toBe(403);
    // The other carer still sees it: nothing was hidden from them.
    expect((await call('other', 'GET', `/api/v1/hr/condition/${id}/`)).statusCode).toBe(200);
    // A change that leaves `private` as it is goes through.
    expect((await call('full', 'PATCH', `/api/v1/hr/condition/${id}/`, { private: false, notes: 'Seen by Fay' })).statusCode).toBe(200);
    expect((await call('owner', 'PATCH', `/api/v1/hr/condition/${id}/`, { private: true })).statusCode).toBe(200);
    expect((await call('other', 'GET', `/api/v1/hr/condition/${id}/`)).statusCode).toBe(404);
  });
});

describe('a carer’s shares end with their access', () => {
  it('the patient’s list says who made a share; removing the carer ends it, its recipient sessions too, and the patient is told', async () => {
    const mine = await call('owner', 'POST', '/api/v1/sharing/', { recipient_name: 'Dr Own', recipient_email: 'own@clinic.test', categories: ['condition'] });
    expect(mine.statusCode, mine.body).toBe(201);
    const carers = await call('full', 'POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.test', categories: ['condition'] });
    expect(carers.statusCode, carers.body).toBe(201);
    const list = (await call('owner', 'GET', '/api/v1/sharing/')).json<Share[]>();
    expect(list.find((s) => s.recipient_name === 'Dr Grey')!.shared_by).toBe('Fay Full');
    expect(list.find((s) => s.recipient_name === 'Dr Own')!.shared_by).toBeNull();

    const member = await t.db.selectFrom('patient_grants').select('id').where('patient_id', '=', patientId).where('grantee_user_id', '=', people.full!.id).executeTakeFirstOrThrow();
    expect((await call('owner', 'DELETE', `/api/v1/care-network/${member.id}/`)).statusCode).toBe(204);
    const after = (await call('owner', 'GET', '/api/v1/sharing/')).json<Share[]>();
    expect(after.find((s) => s.recipient_name === 'Dr Grey')!.status).toBe('revoked');
    expect(after.find((s) => s.recipient_name === 'Dr Own')!.status).toBe('active');
    await t.app.backgroundMail.drain();
    const told = await sink.waitForMail('olga@door.test', { subject: /Shares made by Fay Full have ended/, timeoutMs: 5000 });
    expect(told.text).toContain('shares ended: 1');
  });
});

describe('who saw my record', () => {
  it('a carer’s read of who the patient is (GET /patients/{id}) is on the patient’s trail, by name', async () => {
    expect((await call('other', 'GET', `/api/v1/patients/${patientId}`)).statusCode).toBe(200);
    const log = (await call('owner', 'GET', '/api/v1/care-network/access-log/')).json<AccessLogPage>();
    expect(log.results.some((e) => e.action === 'patient_read' && e.who === 'Otto Other')).toBe(true);
    const rows = await t.db.selectFrom('audit_log').select(['action']).where('org_id', '=', orgId).where('subject', '=', `patient:${patientId}`).where('action', '=', 'patient_access').where('outcome', '=', 'success').execute();
    expect(rows, 'the policy writes no row of its own for a success: the route says what was seen').toEqual([]);
  });
});
