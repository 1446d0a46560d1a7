// On PostgreSQL too (vitest.config.ts): the family cap under creates sent at once.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILY_MEMBERS_MAX, type FamilyMember, type HealthRecord, type Patient } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * Family members (dependants): adding one (a patient of its own and the manager's grant, in one
 * transaction), listing, working in their record through `?patient=` and `X-Patient-Id`,
 * changing and removing them with all their data, giving them an account of their own (the
 * sign-up attaches it to the existing patient), and the refusals: another user's family member,
 * another organisation, bad input, the limit, a family member who has an account.
 */

const PUBLIC_URL = 'https://hb.example';
const PASSWORD = 'Own-Account#2026';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkaPhfDwAEhQH/1RdNbgAAAABJRU5ErkJggg==', 'base64');

let sink: SmtpSink;
let t: TestApp;
let org: { id: number; name: string };
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL } });
  org = await buildOrganization(t.app, { name: 'family-org', org_name: 'Family Clinic' });
  const other = await buildOrganization(t.app, { name: 'family-other' });
  people.parent = await buildUser(t.app, { org, first_name: 'Helen', last_name: 'Parent', dob: '1985-04-02' });
  people.other = await buildUser(t.app, { org, first_name: 'Olga', last_name: 'Other', dob: '1980-01-01' });
  people.stranger = await buildUser(t.app, { org: other, first_name: 'Sam', last_name: 'Stranger', dob: '1990-01-01' });
  people.taken = await buildUser(t.app, { org, email: 'taken@example.test', dob: '1970-01-01' });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': 'en', ...headers }, ...(payload ? { payload } : {}) });

const child = (over: Record<string, unknown> = {}) => ({ first_name: 'Nikos', last_name: 'Parent', dob: '2018-09-01', gender: 'male', relationship: 'child', ...over });
const add = async (who: string, over: Record<string, unknown> = {}) => {
  const res = await call(who, 'POST', '/api/v1/family-members/', child(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<FamilyMember>();
};
const auditCount = async (action: string, outcome?: 'success' | 'failure' | 'denied') => {
  let q = t.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<string>().as('n')).where('action', '=', action);
  if (outcome) q = q.where('outcome', '=', outcome);
  return Number((await q.executeTakeFirstOrThrow()).n);
};
const patientCount = async () => Number((await t.db.selectFrom('patients').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

describe('adding and listing family members', () => {
  it('adds a family member: a patient without an account and a full, active dependant grant, in one go', async () => {
    const created = await add('parent', { first_name: '  Anna ', last_name: 'Parent', dob: '09/01/2018', gender: 'female' });
    expect(created).toMatchObject({ first_name: 'Anna', last_name: 'Parent', dob: '2018-09-01', gender: 'female', relationship: 'child', has_account: false, invited: null });

    const patient = await t.db.selectFrom('patients').selectAll().where('id', '=', created.patient_id).executeTakeFirstOrThrow();
    expect(patient).toMatchObject({ org_id: org.id, user_id: null, first_name: 'Anna', last_name: 'Parent', gender: 'female' });
    const grant = await t.db.selectFrom('patient_grants').selectAll().where('patient_id', '=', created.patient_id).executeTakeFirstOrThrow();
    expect(grant).toMatchObject({ kind: 'dependant', status: 'active', access: 'full', grantee_user_id: people.parent!.id, email: null, name: 'Anna Parent', relationship: 'child' });

    const list = await call('parent', 'GET', '/api/v1/family-members/');
    expect(list.statusCode).toBe(200);
    expect(list.json<FamilyMember[]>().map((m) => m.patient_id)).toContain(created.patient_id);

    // The patients list offers it as a dependant the parent may open.
    const patients = (await call('parent', 'GET', '/api/v1/patients/')).json<Patient[]>();
    expect(patients.find((p) => p.patient_id === created.patient_id)).toMatchObject({ relation: 'dependant', access: 'full', has_account: false, first_name: 'Anna' });
    expect(await auditCount('family_member_create', 'success')).toBeGreaterThan(0);

    // Nobody else sees it.
    expect((await call('other', 'GET', '/api/v1/family-members/')).json()).toEqual([]);
    expect((await call('stranger', 'GET', '/api/v1/family-members/')).json()).toEqual([]);
  });

  it('refuses bad input field by field, and creates nothing', async () => {
    const before = await patientCount();
    const future = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ first_name: '' }, 'first_name', 'First name is required'],
      [{ first_name: '1234' }, 'first_name', 'A name needs at least one letter.'],
      [{ last_name: 'a\nb' }, 'last_name', 'This field cannot contain control characters or line breaks.'],
      [{ dob: future }, 'dob', 'The date of birth cannot be in the future'],
      [{ dob: '2018-02-30' }, 'dob', 'Invalid date format'],
      [{ dob: '' }, 'dob', 'Date of birth is required'],
      [{ gender: 'robot' }, 'gender', 'Choose one of the options.'],
      [{ relationship: 'cousin' }, 'relationship', 'Choose who they are to you.'],
    ];
    for (const [over, field, message] of cases) {
      const res = await call('parent', 'POST', '/api/v1/family-members/', child(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json()[field], JSON.stringify(over)).toContain(message);
    }
    const greek = await call('parent', 'POST', '/api/v1/family-members/', child({ relationship: 'pet' }), { 'accept-language': 'el' });
    expect(greek.json().relationship).toEqual(['Επιλέξτε ποιος/ποια είναι για εσάς.']);
    expect(await patientCount()).toBe(before);
  });

  it(`stops at ${FAMILY_MEMBERS_MAX} family members per user, also under parallel requests`, async () => {
    const user = await buildUser(t.app, { org, dob: '1960-01-01' });
    tokens.many = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    const answers = await Promise.all(Array.from({ length: FAMILY_MEMBERS_MAX + 3 }, (_, i) => call('many', 'POST', '/api/v1/family-members/', child({ first_name: `Kid${'a'.repeat(i + 1)}` }))));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(FAMILY_MEMBERS_MAX);
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.json()).toEqual({ detail: `You can manage at most ${FAMILY_MEMBERS_MAX} family members.` });
    expect((await call('many', 'GET', '/api/v1/family-members/')).json<FamilyMember[]>()).toHaveLength(FAMILY_MEMBERS_MAX);
    expect(await auditCount('family_member_create', 'denied')).toBeGreaterThanOrEqual(3);
  });

  it('answers 403 while CareClub+ is off for the organisation, 401 without a session', async () => {
    const off = await buildOrganization(t.app, { name: 'family-off' });
    const patient = await buildUser(t.app, { org: off, dob: '1990-01-01' });
    const admin = await buildUser(t.app, { org: off, roles: ['org_admin'] });
    const [pt, at] = await Promise.all([patient, admin].map(async (u) => (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access));
    const features = (await t.app.inject({ method: 'POST', url: '/api/v1/features/get-features/', headers: bearer(at!), payload: { organization_id: off.id } })).json<Array<{ id: number; key: string }>>();
    const careclub = features.find((f) => f.key === 'careclub')!;
    const set = await t.app.inject({ method: 'PUT', url: `/api/v1/features/${careclub.id}/`, headers: bearer(at!), payload: { organization_id: off.id, feature_status: 'inactive' } });
    expect(set.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/family-members/', headers: bearer(pt!) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/family-members/', headers: bearer(pt!), payload: child() })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/family-members/' })).statusCode).toBe(401);
  });
});

describe("working in a family member's record", () => {
  it('records go to the family member, by ?patient= and by the X-Patient-Id header; not to the parent', async () => {
    const kid = await add('parent', { first_name: 'Eva' });
    const byQuery = await call('parent', 'POST', `/api/v1/hr/immunization/?patient=${kid.patient_id}`, { vaccine_name: 'MMR' });
    expect(byQuery.statusCode, byQuery.body).toBe(201);
    const byHeader = await call('parent', 'POST', '/api/v1/hr/immunization/', { vaccine_name: 'Tetanus' }, { 'x-patient-id': String(kid.patient_id) });
    expect(byHeader.statusCode, byHeader.body).toBe(201);

    const kidList = await call('parent', 'GET', '/api/v1/hr/immunization/', undefined, { 'x-patient-id': String(kid.patient_id) });
    expect(kidList.json<{ results: HealthRecord[] }>().results.map((r) => r.vaccine_name).sort()).toEqual(['MMR', 'Tetanus']);
    const own = await call('parent', 'GET', '/api/v1/hr/immunization/');
    expect(own.json<{ count: number }>().count).toBe(0);

    // Another user, and another organisation, cannot open it.
    for (const who of ['other', 'stranger']) {
      expect((await call(who, 'GET', `/api/v1/hr/immunization/?patient=${kid.patient_id}`)).statusCode).toBe(404);
      expect((await call(who, 'GET', '/api/v1/hr/immunization/', undefined, { 'x-patient-id': String(kid.patient_id) })).statusCode).toBe(404);
      expect((await call(who, 'POST', `/api/v1/hr/immunization/?patient=${kid.patient_id}`, { vaccine_name: 'X' })).statusCode).toBe(404);
    }
  });

  it("changes a family member's details; another user's or organisation's family member is not there (404)", async () => {
    const kid = await add('parent', { first_name: 'Petros' });
    const changed = await call('parent', 'PATCH', `/api/v1/family-members/${kid.patient_id}/`, { first_name: 'Peter', dob: '2017-01-05', relationship: 'other' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<FamilyMember>()).toMatchObject({ first_name: 'Peter', last_name: 'Parent', dob: '2017-01-05', relationship: 'other', gender: 'male' });
    const grant = await t.db.selectFrom('patient_grants').select(['name', 'relationship']).where('patient_id', '=', kid.patient_id).executeTakeFirstOrThrow();
    expect(grant).toEqual({ name: 'Peter Parent', relationship: 'other' });

    expect((await call('parent', 'PATCH', `/api/v1/family-members/${kid.patient_id}/`, {})).statusCode).toBe(400);
    expect((await call('parent', 'PATCH', `/api/v1/family-members/${kid.patient_id}/`, { dob: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10) })).json().dob).toEqual(['The date of birth cannot be in the future']);

    const denied = await auditCount('family_member_update', 'denied');
    for (const who of ['other', 'stranger']) {
      for (const [method, url, body] of [
        ['PATCH', `/api/v1/family-members/${kid.patient_id}/`, { first_name: 'Hacked' }],
        ['DELETE', `/api/v1/family-members/${kid.patient_id}/`, undefined],
        ['POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email: 'x@example.test' }],
      ] as const) {
        const res = await call(who, method, url, body);
        expect(res.statusCode, `${who} ${method} ${url}`).toBe(404);
      }
    }
    // The parent's own patient is not a family member either.
    const own = (await t.db.selectFrom('patients').select('id').where('user_id', '=', people.parent!.id).executeTakeFirstOrThrow()).id;
    expect((await call('parent', 'DELETE', `/api/v1/family-members/${own}/`)).statusCode).toBe(404);
    expect((await call('parent', 'PATCH', '/api/v1/family-members/2147483647/', { first_name: 'X' })).statusCode).toBe(404);
    expect(await auditCount('patient_access', 'denied')).toBeGreaterThan(0);
    expect(await auditCount('family_member_update', 'denied')).toBeGreaterThanOrEqual(denied);
    const still = await t.db.selectFrom('patients').select('first_name').where('id', '=', kid.patient_id).executeTakeFirstOrThrow();
    expect(still.first_name).toBe('Peter');
  });

  it('removes a family member with all their data and files', async () => {
    const kid = await add('parent', { first_name: 'Zoe' });
    const h = { 'x-patient-id': String(kid.patient_id) };
    const rec = await call('parent', 'POST', '/api/v1/hr/immunization/', { vaccine_name: 'Polio' }, h);
    expect(rec.statusCode).toBe(201);
    const event = await call('parent', 'POST', '/api/v1/calendar/events/', { title: 'Vaccination', type: 'Exam', start_time: '2026-12-01T09:00:00Z', end_time: '2026-12-01T09:30:00Z' }, h);
    expect(event.statusCode, event.body).toBe(201);
    const boundary = `----fm${randomBytes(6).toString('hex')}`;
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/v1/documents/',
      headers: { ...bearer(tokens.parent!), ...h, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="card.png"\r\nContent-Type: image/png\r\n\r\n`),
        PNG,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const doc = await t.db.selectFrom('documents').select('storage_key').where('patient_id', '=', kid.patient_id).executeTakeFirstOrThrow();
    expect(await t.app.storage.get(doc.storage_key)).not.toBeNull();

    const res = await call('parent', 'DELETE', `/api/v1/family-members/${kid.patient_id}/`);
    expect(res.statusCode, res.body).toBe(204);
    expect(await t.db.selectFrom('patients').select('id').where('id', '=', kid.patient_id).executeTakeFirst()).toBeUndefined();
    for (const table of ['health_records', 'documents', 'calendar_events', 'patient_grants'] as const) {
      expect(await t.db.selectFrom(table).select('id').where('patient_id', '=', kid.patient_id).executeTakeFirst(), table).toBeUndefined();
    }
    expect(await t.app.storage.get(doc.storage_key)).toBeNull();
    expect((await call('parent', 'GET', '/api/v1/hr/immunization/', undefined, h)).statusCode).toBe(404);
    expect((await call('parent', 'DELETE', `/api/v1/family-members/${kid.patient_id}/`)).statusCode).toBe(404);
    expect(await auditCount('family_member_delete', 'success')).toBeGreaterThan(0);
  });
});

describe('an account of their own', () => {
  it('invites by e-mail, the sign-up attaches the account to the existing record, the grant becomes theirs to control', async () => {
    const kid = await add('parent', { first_name: 'Daphne', dob: '2008-03-10', gender: 'female' });
    const rec = await call('parent', 'POST', `/api/v1/hr/immunization/?patient=${kid.patient_id}`, { vaccine_name: 'HPV' });
    expect(rec.statusCode).toBe(201);

    // An address that has an account in the organisation is refused as for administrators.
    const taken = await call('parent', 'POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email: 'Taken@example.test' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ email: ['An account with this e-mail already exists in this organisation.'] });
    expect((await call('parent', 'POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email: 'nope' })).json().email).toEqual(['E-mail must be valid']);
    expect(await t.db.selectFrom('invitations').select('id').where('patient_id', '=', kid.patient_id).executeTakeFirst()).toBeUndefined();

    const email = `daphne-${randomBytes(3).toString('hex')}@example.test`;
    const first = await call('parent', 'POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email: 'daphne-old@example.test' });
    expect(first.statusCode, first.body).toBe(200);
    const invited = await call('parent', 'POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email: email.toUpperCase() });
    expect(invited.statusCode, invited.body).toBe(200);
    expect(invited.json<FamilyMember>().invited).toMatchObject({ email, status: 'pending' });
    // The newer invitation replaced the earlier one.
    expect(await t.db.selectFrom('invitations').select('email').where('patient_id', '=', kid.patient_id).execute()).toEqual([{ email }]);

    const mail = await sink.waitForMail(email);
    expect(mail.subject).toBe('Your own account at Family Clinic');
    expect(mail.text).toContain('Helen Parent has kept your health record at Family Clinic');
    expect(mail.text).toContain(`${PUBLIC_URL}/family-org/access-code`);
    const code = /access code: ([A-Z0-9-]+)/.exec(mail.text ?? '')?.[1];
    expect(code).toBeTruthy();

    // The usual sign-up: validate, then register with the invitation's details.
    const validate = await t.app.inject({ method: 'POST', url: '/api/v1/users/validate/', payload: { org_id: org.id, signup_code: code } });
    expect(validate.statusCode, validate.body).toBe(200);
    expect(validate.json()).toMatchObject({ first_name: 'Daphne', last_name: 'Parent', dob: '2008-03-10', email });
    const patientsBefore = await patientCount();
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/register/',
      payload: { user_id: null, first_name: 'Daphne', last_name: 'Parent', sex: 'female', dob: '2008-03-10', email, password: PASSWORD, signup_code: code, is_terms_privacy_policy_accepted: true, org_id: org.id },
    });
    expect(register.statusCode, register.body).toBeLessThan(300);
    // No new patient: the account is the family member's existing one.
    expect(await patientCount()).toBe(patientsBefore);
    const user = await t.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const patient = await t.db.selectFrom('patients').select(['id', 'user_id']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(patient.id).toBe(kid.patient_id);
    const grant = await t.db.selectFrom('patient_grants').selectAll().where('patient_id', '=', kid.patient_id).executeTakeFirstOrThrow();
    expect(grant).toMatchObject({ status: 'active', access: 'full', grantee_user_id: people.parent!.id, email: people.parent!.email.toLowerCase(), relationship: 'child' });
    const joined = await sink.waitForMail(people.parent!.email, { subject: /now has an account/ });
    expect(joined.text).toContain('Daphne Parent created an account of their own at Family Clinic');

    // The code is single use.
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/users/validate/', payload: { org_id: org.id, signup_code: code } });
    expect(again.statusCode).toBe(400);

    // The new account holder signs in to their record, with what the parent kept in it.
    await t.db.updateTable('users').set({ email_confirmed_at: new Date() }).where('id', '=', user.id).execute();
    tokens.daphne = (await signIn(t.app, { email, password: PASSWORD, org_id: org.id })).access;
    const ownRecords = (await call('daphne', 'GET', '/api/v1/hr/immunization/')).json<{ results: HealthRecord[] }>();
    expect(ownRecords.results.map((r) => r.vaccine_name)).toEqual(['HPV']);
    const own = (await call('daphne', 'GET', '/api/v1/patients/')).json<Patient[]>();
    expect(own[0]).toMatchObject({ patient_id: kid.patient_id, is_self: true, relation: 'self', first_name: 'Daphne' });

    // The parent still has full access; the family member shows with an account, and is theirs now.
    const listed = (await call('parent', 'GET', '/api/v1/family-members/')).json<FamilyMember[]>().find((m) => m.patient_id === kid.patient_id);
    expect(listed).toMatchObject({ has_account: true, invited: null });
    expect((await call('parent', 'GET', `/api/v1/hr/immunization/?patient=${kid.patient_id}`)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['PATCH', `/api/v1/family-members/${kid.patient_id}/`, { first_name: 'X' }],
      ['DELETE', `/api/v1/family-members/${kid.patient_id}/`, undefined],
      ['POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email: 'again@example.test' }],
    ] as const) {
      const res = await call('parent', method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(409);
      expect(res.json()).toEqual({ detail: 'Daphne has an account of their own: the record is theirs to manage now.' });
    }
    expect(await t.db.selectFrom('patients').select('id').where('id', '=', kid.patient_id).executeTakeFirst()).toBeDefined();

    // The account holder sees the parent in their care network and removes them (A1's care-network
    // routes); without those routes on this branch, the removal is the grant's revocation itself.
    const network = await call('daphne', 'GET', '/api/v1/care-network/');
    if (network.statusCode === 200) {
      const members = network.json<Array<{ id: number; email: string | null; status: string }>>();
      const manager = members.find((m) => m.email === people.parent!.email.toLowerCase());
      expect(manager).toMatchObject({ status: 'active' });
      const removed = await call('daphne', 'DELETE', `/api/v1/care-network/${manager!.id}/`);
      expect(removed.statusCode, removed.body).toBe(204);
    } else {
      await t.db.updateTable('patient_grants').set({ status: 'revoked', ended_at: new Date() }).where('id', '=', grant.id).execute();
    }
    expect((await call('parent', 'GET', `/api/v1/hr/immunization/?patient=${kid.patient_id}`)).statusCode).toBe(404);
    expect((await call('parent', 'GET', '/api/v1/family-members/')).json<FamilyMember[]>().map((m) => m.patient_id)).not.toContain(kid.patient_id);
    expect((await call('parent', 'PATCH', `/api/v1/family-members/${kid.patient_id}/`, { first_name: 'X' })).statusCode).toBe(404);
  });

  it('a used or expired code, or a family member removed meanwhile, leaves nothing behind', async () => {
    const kid = await add('parent', { first_name: 'Iris', dob: '2010-05-05', gender: 'female' });
    const email = `iris-${randomBytes(3).toString('hex')}@example.test`;
    expect((await call('parent', 'POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email })).statusCode).toBe(200);
    const code = /access code: ([A-Z0-9-]+)/.exec((await sink.waitForMail(email)).text ?? '')?.[1];
    // The family member is removed: the invitation goes with them.
    expect((await call('parent', 'DELETE', `/api/v1/family-members/${kid.patient_id}/`)).statusCode).toBe(204);
    const users = await t.db.selectFrom('users').select('id').execute();
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/register/',
      payload: { email, password: PASSWORD, signup_code: code, is_terms_privacy_policy_accepted: true, org_id: org.id },
    });
    expect(register.statusCode).toBe(400);
    expect(register.json()).toEqual({ signup_code: ['Access code is invalid'] });
    expect(await t.db.selectFrom('users').select('id').execute()).toHaveLength(users.length);
  });

  it('parallel sign-ups with one code make one account', async () => {
    const kid = await add('parent', { first_name: 'Leo', dob: '2009-02-02' });
    const email = `leo-${randomBytes(3).toString('hex')}@example.test`;
    expect((await call('parent', 'POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email })).statusCode).toBe(200);
    const code = /access code: ([A-Z0-9-]+)/.exec((await sink.waitForMail(email)).text ?? '')?.[1];
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        t.app.inject({ method: 'POST', url: '/api/v1/users/register/', payload: { email, password: PASSWORD, signup_code: code, is_terms_privacy_policy_accepted: true, org_id: org.id } }),
      ),
    );
    expect(answers.filter((r) => r.statusCode < 300).length).toBeGreaterThanOrEqual(1);
    const accounts = await t.db.selectFrom('users').select('id').where('email', '=', email).execute();
    expect(accounts).toHaveLength(1);
    const patient = await t.db.selectFrom('patients').select('id').where('user_id', '=', accounts[0]!.id).execute();
    expect(patient).toEqual([{ id: kid.patient_id }]);
  });

  it('throttles invitations per manager', async () => {
    const user = await buildUser(t.app, { org, dob: '1961-01-01' });
    tokens.busy = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    const res = await call('busy', 'POST', '/api/v1/family-members/', child());
    const kid = res.json<FamilyMember>();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call('busy', 'POST', `/api/v1/family-members/${kid.patient_id}/invite/`, { email: `busy-${i}-${randomBytes(2).toString('hex')}@example.test` })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await auditCount('family_member_invite', 'denied')).toBeGreaterThan(0);
  });
});
