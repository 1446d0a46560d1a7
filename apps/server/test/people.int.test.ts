// On PostgreSQL too (vitest.config.ts): the last organisation admin under demotions sent at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { bearer, buildInvitation, buildMfaDevice, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const PUBLIC_URL = 'https://hb.example';

let sink: SmtpSink;
let t: TestApp;
let orgA: { id: number; name: string; org_name: string };
let orgB: { id: number; name: string; org_name: string };
const users = {} as Record<'adminA' | 'adminB' | 'patientA' | 'providerA' | 'superB' | 'patientB', BuiltUser>;
const tokens = {} as Record<keyof typeof users, string>;

const api = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload === undefined ? {} : { payload: payload as string }) });

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: `${sink.url}${sink.url.includes('?') ? '&' : '?'}pool=true`, PUBLIC_URL }, perIpLimitFloor: 100_000 });
  orgA = await buildOrganization(t.app, { name: 'people-a', org_name: 'Clinic Alpha' });
  orgB = await buildOrganization(t.app, { name: 'people-b', org_name: 'Clinic Beta' });
  users.adminA = await buildUser(t.app, { org: orgA, roles: ['org_admin'], last_name: 'Adminson' });
  users.adminB = await buildUser(t.app, { org: orgB, roles: ['org_admin'] });
  users.patientA = await buildUser(t.app, { org: orgA, roles: ['patient'], first_name: 'Petra', last_name: 'Patient' });
  users.providerA = await buildUser(t.app, { org: orgA, roles: ['professional', 'provider'] });
  users.superB = await buildUser(t.app, { org: orgB, roles: [], is_superadmin: true });
  users.patientB = await buildUser(t.app, { org: orgB, roles: ['patient'] });
  for (const [key, user] of Object.entries(users)) tokens[key as keyof typeof users] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

describe('the people list', () => {
  it('lists the organisation’s accounts and pending invitations, searched and paged, with statuses', async () => {
    await buildInvitation(t.app, { org: orgA, first_name: 'Ivy', last_name: 'Invited', email: 'ivy@example.test' });
    const res = await api('GET', '/api/v1/admin/people/?page_size=100', tokens.adminA);
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.org.id).toBe(orgA.id);
    const emails = page.results.map((p: { email: string }) => p.email);
    expect(emails).toContain(users.patientA.email);
    expect(emails).toContain('ivy@example.test');
    expect(emails).not.toContain(users.patientB.email);
    const ivy = page.results.find((p: { email: string }) => p.email === 'ivy@example.test');
    expect(ivy).toMatchObject({ kind: 'patient', statuses: ['invited'], user_id: null });
    const admin = page.results.find((p: { email: string }) => p.email === users.adminA.email);
    expect(admin.kind).toBe('staff');
    expect(admin.statuses).toContain('active');
    expect(admin.last_sign_in).not.toBeNull();

    const search = (await api('GET', '/api/v1/admin/people/?search=petra%20pat', tokens.adminA)).json();
    expect(search.count).toBe(1);
    expect(search.results[0].email).toBe(users.patientA.email);
    const staff = (await api('GET', '/api/v1/admin/people/?kind=staff', tokens.adminA)).json();
    expect(staff.results.every((p: { kind: string }) => p.kind === 'staff')).toBe(true);
    const paged = (await api('GET', '/api/v1/admin/people/?page=2&page_size=2', tokens.adminA)).json();
    expect(paged.results).toHaveLength(2);
    expect(paged.count).toBeGreaterThanOrEqual(4);
  });

  it('another organisation: 404 for an org admin; any for a super admin; 403 for a patient or a provider; 400 names the field', async () => {
    expect((await api('GET', `/api/v1/admin/people/?org_id=${orgA.name}`, tokens.adminB)).statusCode).toBe(404);
    const sup = await api('GET', `/api/v1/admin/people/?org_id=${orgA.name}`, tokens.superB);
    expect(sup.statusCode).toBe(200);
    expect(sup.json().org.id).toBe(orgA.id);
    expect((await api('GET', '/api/v1/admin/people/', tokens.patientA)).statusCode).toBe(403);
    expect((await api('GET', '/api/v1/admin/people/', tokens.providerA)).statusCode).toBe(403);
    const bad = await api('GET', '/api/v1/admin/people/?page_size=1000', tokens.adminA);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('page_size');
    expect((await api('GET', '/api/v1/admin/people/?org_id=nowhere', tokens.superB)).json()).toHaveProperty('org_id');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/people/' })).statusCode).toBe(401);
  });
});

describe('inviting staff', () => {
  it('invites a provider with a profile: the link sets the password, then they sign in and telehealth shows them', async () => {
    const email = 'dr.new@example.test';
    const res = await api('POST', '/api/v1/admin/people/staff/', tokens.adminA, { first_name: 'Nina', last_name: 'Neu', email, role: 'provider', speciality: 'Cardiology', credentials: 'MD', languages: ['English', 'Greek'], biography: 'Heart doctor.' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email, kind: 'staff', statuses: ['invited'], roles: ['professional', 'provider'] });
    const mail = await sink.waitForMail(email, { subject: /choose your password/ });
    const link = /https:\/\/hb\.example\/people-a\/password\/set\/([^/\s]+)\/([^\s]+)/.exec(mail.text!)!;
    expect(link).not.toBeNull();
    const set = await t.app.inject({ method: 'POST', url: '/api/v1/account_setup/', payload: { uid: link[1], token: link[2], password: 'Brand-New-Pass-77' } });
    expect([200, 204]).toContain(set.statusCode);
    const signedIn = await signIn(t.app, { email, password: 'Brand-New-Pass-77', org_id: orgA.id });
    const providers = await api('GET', '/api/v1/provider/list/', tokens.patientA);
    if (providers.statusCode === 200) expect(JSON.stringify(providers.json())).toContain('Cardiology');
    const list = (await api('GET', `/api/v1/admin/people/?search=${email}`, tokens.adminA)).json();
    expect(list.results[0].statuses).toEqual(['active']);
    expect(signedIn.access).toBeTruthy();
  });

  it('invites a peer coach and an organisation admin; resends a link; refuses a taken address (400 email, nothing written)', async () => {
    const coach = await api('POST', '/api/v1/admin/people/staff/', tokens.adminA, { first_name: 'Cora', last_name: 'Coach', email: 'cora@example.test', role: 'coach', language: 'el' });
    expect(coach.json().roles).toEqual(['professional', 'coach']);
    const greek = await sink.waitForMail('cora@example.test');
    expect(greek.subject).toMatch(/επιλέξτε συνθηματικό/);
    const resent = await api('POST', `/api/v1/admin/people/${coach.json().user_id}/resend-invitation/`, tokens.adminA);
    expect(resent.statusCode).toBe(200);
    expect((await api('POST', `/api/v1/admin/people/${users.patientA.id}/resend-invitation/`, tokens.adminA)).statusCode).toBe(409);
    const taken = await api('POST', '/api/v1/admin/people/staff/', tokens.adminA, { first_name: 'X', last_name: 'Y', email: users.patientA.email, role: 'org_admin' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toHaveProperty('email');
    const bad = await api('POST', '/api/v1/admin/people/staff/', tokens.adminA, { first_name: 'X', last_name: 'Y', email: 'fresh@example.test', role: 'superadmin' }, { 'accept-language': 'el' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().role[0]).toMatch(/Επιλέξτε/);
    const none = await t.db.selectFrom('users').select('id').where('email', '=', 'fresh@example.test').execute();
    expect(none).toHaveLength(0);
    expect((await api('POST', '/api/v1/admin/people/staff/', tokens.adminB, { org_id: orgA.id, first_name: 'X', last_name: 'Y', email: 'z@example.test', role: 'coach' })).statusCode).toBe(404);
    expect((await api('POST', '/api/v1/admin/people/staff/', tokens.providerA, { first_name: 'X', last_name: 'Y', email: 'z@example.test', role: 'coach' })).statusCode).toBe(403);
  });

  it('resends a patient’s invitation with a new code', async () => {
    const inv = await buildInvitation(t.app, { org: orgA, email: 'again@example.test' });
    expect((await api('POST', `/api/v1/admin/people/invitations/${inv.id}/resend/`, tokens.adminB)).statusCode).toBe(404);
    expect((await api('POST', `/api/v1/admin/people/invitations/${inv.id}/resend/`, tokens.adminA)).statusCode).toBe(204);
    const mail = await sink.waitForMail('again@example.test');
    expect(mail.text).not.toContain(inv.code);
  });
});

describe('roles and standing', () => {
  it('limits: not one’s own roles, no super admin by an org admin, another organisation 404, patient 403, bad role 400', async () => {
    const url = (u: BuiltUser) => `/api/v1/admin/people/${u.id}/roles/`;
    expect((await api('PUT', url(users.adminA), tokens.adminA, { roles: ['patient'] })).statusCode).toBe(403);
    expect((await api('PUT', url(users.patientA), tokens.adminA, { roles: ['patient'], is_superadmin: true })).statusCode).toBe(403);
    expect((await api('PUT', url(users.patientA), tokens.adminB, { roles: ['coach'] })).statusCode).toBe(404);
    expect((await api('PUT', url(users.patientA), tokens.patientA, { roles: ['coach'] })).statusCode).toBe(403);
    const bad = await api('PUT', url(users.patientA), tokens.adminA, { roles: ['god'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())[0]).toMatch(/^roles/);
    const row = await t.db.selectFrom('users').select(['roles', 'is_superadmin']).where('id', '=', users.patientA.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ roles: ['patient'], is_superadmin: false });
    const audit = await t.db.selectFrom('audit_log').select('outcome').where('action', '=', 'people_roles').where('outcome', '=', 'denied').execute();
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it('a provider who loses the role keeps past appointments; future bookings are cancelled, both sides e-mailed', async () => {
    const doc = await buildUser(t.app, { org: orgA, roles: ['professional', 'provider'], email: 'doc-leaving@example.test' });
    const pat = await buildUser(t.app, { org: orgA, roles: ['patient'], email: 'doc-patient@example.test' });
    const docToken = (await signIn(t.app, { email: doc.email, password: doc.password, org_id: orgA.id })).access;
    const patToken = (await signIn(t.app, { email: pat.email, password: pat.password, org_id: orgA.id })).access;
    const schedule = { slot_minutes: 30, timezone: 'UTC', weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '00:00', end: '23:30' })), exceptions: [] };
    const published = await api('PUT', '/api/v1/provider/me/schedule/', docToken, schedule);
    expect(published.statusCode, published.body).toBe(200);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const slots = (await api('GET', `/api/v1/provider/${doc.id}/availability/?start=${day(1)}&end=${day(2)}`, patToken)).json().slots;
    const booked = await api('POST', '/api/v1/provider/book_appointment/', patToken, { provider_id: doc.id, availability_det_id: slots[0].availability_det_id, reason_for_visit: 'Check-up' });
    expect(booked.statusCode, booked.body).toBe(201);
    // A past appointment (as if it had been booked and held).
    const appt = await t.db.selectFrom('appointments').selectAll().where('provider_id', '=', doc.id).executeTakeFirstOrThrow();
    const pastSlot = await t.db.insertInto('availability_slots').values({ org_id: orgA.id, provider_id: doc.id, start_time: new Date(Date.now() - 86_400_000), end_time: new Date(Date.now() - 86_400_000 + 1_800_000) }).returning('id').executeTakeFirstOrThrow();
    await t.db.insertInto('appointments').values({ org_id: orgA.id, patient_id: appt.patient_id, provider_id: doc.id, slot_id: pastSlot.id, start_time: new Date(Date.now() - 86_400_000), end_time: new Date(Date.now() - 86_400_000 + 1_800_000), reason_for_visit: 'Past', booked_by: pat.id }).execute();

    const res = await api('PUT', `/api/v1/admin/people/${doc.id}/roles/`, tokens.adminA, { roles: ['patient'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().roles).toEqual(['patient']);
    const rows = await t.db.selectFrom('appointments').select(['reason_for_visit', 'status', 'cancelled_by_provider']).where('provider_id', '=', doc.id).orderBy('start_time').execute();
    expect(rows).toEqual([
      { reason_for_visit: 'Past', status: 'booked', cancelled_by_provider: false },
      { reason_for_visit: 'Check-up', status: 'cancelled', cancelled_by_provider: true },
    ]);
    await sink.waitForMail('doc-patient@example.test', { subject: /cancel/i });
    await sink.waitForMail('doc-leaving@example.test', { subject: /cancel/i });
  });

  it('two admins demoting each other at once, many times over: one admin always remains', async () => {
    const org = await buildOrganization(t.app, { name: 'people-race', org_name: 'Race Clinic' });
    // Twelve rounds, the requests sent in both orders: PostgreSQL once deadlocked here (1 round in
    // about 100) when the account was locked after the admins.
    for (let round = 0; round < 12; round++) {
      const a = await buildUser(t.app, { org, roles: ['org_admin'] });
      const b = await buildUser(t.app, { org, roles: ['org_admin'] });
      await t.db.updateTable('users').set({ is_active: false }).where('org_id', '=', org.id).where('id', 'not in', [a.id, b.id]).execute();
      const ta = (await signIn(t.app, { email: a.email, password: a.password, org_id: org.id })).access;
      const tb = (await signIn(t.app, { email: b.email, password: b.password, org_id: org.id })).access;
      const requests = [
        () => api('PUT', `/api/v1/admin/people/${b.id}/roles/`, ta, { roles: ['patient'] }),
        () => api('PUT', `/api/v1/admin/people/${a.id}/roles/`, tb, { roles: ['patient'] }),
        () => api('POST', `/api/v1/admin/people/${b.id}/deactivate/`, ta),
        () => api('POST', `/api/v1/admin/people/${a.id}/deactivate/`, tb),
      ];
      const results = await Promise.all((round % 2 ? requests.reverse() : requests).map((send) => send()));
      const codes = results.map((r) => r.statusCode);
      expect(codes.every((c) => [200, 401, 403, 409].includes(c)), JSON.stringify(results.map((r) => [r.statusCode, r.body.slice(0, 200)]))).toBe(true);
      const admins = await t.db.selectFrom('users').select('id').where('org_id', '=', org.id).where('is_active', '=', true).where(({ eb, val }) => eb(val('org_admin'), '=', eb.fn.any('roles'))).execute();
      expect(admins.length).toBe(1);
    }
  });

  it('deactivation ends the sessions at once and refuses sign-in; reactivation restores it', async () => {
    const u = await buildUser(t.app, { org: orgA, roles: ['patient'] });
    const tok = (await signIn(t.app, { email: u.email, password: u.password, org_id: orgA.id })).access;
    expect((await api('GET', '/api/v1/me/', tok)).statusCode).toBe(200);
    const results = await Promise.all(Array.from({ length: 5 }, () => api('POST', `/api/v1/admin/people/${u.id}/deactivate/`, tokens.adminA)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(4);
    expect(results.find((r) => r.statusCode === 200)!.json().statuses).toContain('deactivated');
    expect((await api('GET', '/api/v1/me/', tok)).statusCode).toBe(401);
    await expect(signIn(t.app, { email: u.email, password: u.password, org_id: orgA.id })).rejects.toThrow(/401/);
    expect((await api('POST', `/api/v1/admin/people/${u.id}/reactivate/`, tokens.adminB)).statusCode).toBe(404);
    expect((await api('POST', `/api/v1/admin/people/${u.id}/reactivate/`, tokens.adminA)).statusCode).toBe(200);
    await signIn(t.app, { email: u.email, password: u.password, org_id: orgA.id });
    expect((await api('POST', `/api/v1/admin/people/${users.adminA.id}/deactivate/`, tokens.adminA)).statusCode).toBe(403);
  });

  it('unlocks a locked sign-in', async () => {
    const u = await buildUser(t.app, { org: orgA, roles: ['patient'] });
    for (let i = 0; i < 6; i++) await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { email: u.email, password: 'wrong-password-1', org: orgA.id } });
    await expect(signIn(t.app, { email: u.email, password: u.password, org_id: orgA.id })).rejects.toThrow(/429/);
    const listed = (await api('GET', `/api/v1/admin/people/?search=${u.email}`, tokens.adminA)).json();
    expect(listed.results[0].statuses).toContain('locked');
    expect((await api('POST', `/api/v1/admin/people/${u.id}/unlock/`, tokens.adminB)).statusCode).toBe(404);
    expect((await api('POST', `/api/v1/admin/people/${u.id}/unlock/`, tokens.adminA)).statusCode).toBe(200);
    await signIn(t.app, { email: u.email, password: u.password, org_id: orgA.id });
    expect((await api('POST', `/api/v1/admin/people/${u.id}/unlock/`, tokens.adminA)).statusCode).toBe(409);
  });

  it('resets a lost second factor: a reason is required, the person is e-mailed, it is audited', async () => {
    const u = await buildUser(t.app, { org: orgA, roles: ['patient'], email: 'lost-phone@example.test' });
    await buildMfaDevice(t.app, { user: u, type: 'google' });
    const none = await api('POST', `/api/v1/admin/people/${u.id}/reset-mfa/`, tokens.adminA, { reason: '  ' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toHaveProperty('reason');
    expect(await t.db.selectFrom('mfa_devices').select('uuid').where('user_id', '=', u.id).execute()).toHaveLength(1);
    expect((await api('POST', `/api/v1/admin/people/${u.id}/reset-mfa/`, tokens.adminB, { reason: 'Lost phone' })).statusCode).toBe(404);
    const ok = await api('POST', `/api/v1/admin/people/${u.id}/reset-mfa/`, tokens.adminA, { reason: 'Lost phone, identity checked at the desk' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().statuses).not.toContain('mfa');
    const mail = await sink.waitForMail('lost-phone@example.test', { subject: /second sign-in step/ });
    expect(mail.text).toContain('identity checked at the desk');
    const audit = await t.db.selectFrom('audit_log').select('detail').where('action', '=', 'people_reset_mfa').where('outcome', '=', 'success').where('subject', '=', `user:${u.id}`).executeTakeFirstOrThrow();
    expect(audit.detail).toMatchObject({ reason: 'Lost phone, identity checked at the desk' });
    expect((await api('POST', `/api/v1/admin/people/${u.id}/reset-mfa/`, tokens.adminA, { reason: 'again' })).statusCode).toBe(409);
  });
});

function csv(rows: string[][]): string {
  return ['first_name,last_name,dob,gender,email,language', ...rows.map((r) => r.join(','))].join('\n');
}

async function waitDone(id: number, token: string) {
  for (let i = 0; i < 1200; i++) {
    const res = (await api('GET', `/api/v1/admin/patient-imports/${id}/`, token)).json();
    if (res.status === 'done') return res;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('import did not finish');
}

describe('patients in bulk', () => {
  it('previews each row’s problems, sends nothing until asked, then sends the ready rows by the job', async () => {
    await buildInvitation(t.app, { org: orgA, email: 'pending@example.test' });
    const file = csv([
      ['Anna', 'Alpha', '1980-02-03', 'female', 'anna@example.test', 'en'],
      ['Bob', 'Beta', '1980-02-30', 'male', 'bob@example.test', 'el'],
      ['Cleo', 'Gamma', '1990-01-01', 'robot', 'cleo@example.test', 'en'],
      ['Dup', 'Licate', '1990-01-01', 'other', 'anna@example.test', 'en'],
      ['', 'Nofirst', '1990-01-01', 'other', 'nofirst@example.test', 'en'],
      ['Pat', 'Existing', '1990-01-01', 'female', users.patientA.email, 'en'],
      ['Pen', 'Ding', '1990-01-01', 'female', 'pending@example.test', 'el'],
      ['Έλενα', 'Παπά', '05/06/1975', 'Γυναίκα', 'elena@example.test', 'Ελληνικά'],
    ]);
    const res = await api('POST', '/api/v1/admin/patient-imports/?file_name=patients.csv', tokens.adminA, file, { 'content-type': 'text/csv' });
    expect(res.statusCode).toBe(201);
    const imp = res.json();
    expect(imp.counts).toMatchObject({ ready: 2, invalid: 4, skipped: 2 });
    const byLine = Object.fromEntries(imp.rows.map((r: { row: number; problems: Array<{ code: string }> }) => [r.row, r.problems.map((p) => p.code)]));
    expect(byLine[3]).toEqual(['bad_date']);
    expect(byLine[4]).toEqual(['unknown_gender']);
    expect(byLine[5]).toEqual(['duplicate_in_file']);
    expect(byLine[6]).toEqual(['missing']);
    expect(byLine[7]).toEqual(['already_in_organization']);
    expect(byLine[8]).toEqual(['already_in_organization']);
    expect(sink.messages.some((m) => m.to === 'anna@example.test')).toBe(false);

    expect((await api('POST', `/api/v1/admin/patient-imports/${imp.id}/send/`, tokens.adminB)).statusCode).toBe(404);
    expect((await api('POST', `/api/v1/admin/patient-imports/${imp.id}/send/`, tokens.patientA)).statusCode).toBe(403);
    const sends = await Promise.all(Array.from({ length: 4 }, () => api('POST', `/api/v1/admin/patient-imports/${imp.id}/send/`, tokens.adminA)));
    expect(sends.filter((s) => s.statusCode === 202)).toHaveLength(1);
    const done = await waitDone(imp.id, tokens.adminA);
    expect(done.counts).toMatchObject({ sent: 2, ready: 0, sending: 0 });
    const elena = await sink.waitForMail('elena@example.test');
    expect(elena.subject).toMatch(/Προσκληθήκατε|πρόσκληση|Πρόσκληση/i);
    await sink.waitForMail('anna@example.test');
  });

  it('refuses a file that is not the expected CSV (400 file, nothing written)', async () => {
    const before = await t.db.selectFrom('patient_imports').select('id').execute();
    const bad = await api('POST', '/api/v1/admin/patient-imports/', tokens.adminA, 'name;mail\nx;y', { 'content-type': 'text/csv' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('file');
    const empty = await api('POST', '/api/v1/admin/patient-imports/', tokens.adminA, 'first_name,last_name,dob,gender,email,language\n', { 'content-type': 'text/csv' });
    expect(empty.json()).toHaveProperty('file');
    expect((await api('POST', `/api/v1/admin/patient-imports/?org_id=${orgA.id}`, tokens.adminB, csv([['A', 'B', '1990-01-01', 'male', 'q@example.test', 'en']]), { 'content-type': 'text/csv' })).statusCode).toBe(404);
    expect(await t.db.selectFrom('patient_imports').select('id').execute()).toHaveLength(before.length);
  });

  /**
   * The scale (5,000 rows, a minute of work) is proven once, on PGlite; on PostgreSQL, where the two
   * imports' rows are really sent side by side, 500 rows prove that each address is invited once.
   */
  const ROWS = testDbKind() === 'postgres' ? 500 : 5000;
  it(`${ROWS.toLocaleString('en')} rows: all invited once by the job; the same file again invites nobody`, { timeout: 300_000 }, async () => {
    const rows = Array.from({ length: ROWS }, (_, i) => [`First${String.fromCharCode(97 + (i % 26))}`, `Last${String.fromCharCode(97 + ((i / 26) | 0) % 26)}`, '1985-04-12', i % 2 ? 'male' : 'female', `bulk-${i}@example.test`, i % 3 ? 'en' : 'el']);
    const file = csv(rows);
    const imp = (await api('POST', '/api/v1/admin/patient-imports/', tokens.adminA, file, { 'content-type': 'text/csv' })).json();
    expect(imp.counts.ready).toBe(ROWS);
    // Uploaded twice before either is sent: both previews are clean, but sending both invites each address once.
    const twin = (await api('POST', '/api/v1/admin/patient-imports/', tokens.adminA, file, { 'content-type': 'text/csv' })).json();
    const started = Date.now();
    expect((await api('POST', `/api/v1/admin/patient-imports/${imp.id}/send/`, tokens.adminA)).statusCode).toBe(202);
    expect((await api('POST', `/api/v1/admin/patient-imports/${twin.id}/send/`, tokens.adminA)).statusCode).toBe(202);
    const done = await waitDone(imp.id, tokens.adminA);
    const twinDone = await waitDone(twin.id, tokens.adminA);
    const seconds = (Date.now() - started) / 1000;
    console.log(`patient import: ${ROWS} rows in ${seconds.toFixed(1)} s = ${(ROWS / seconds).toFixed(0)} rows/s`);
    expect(done.counts.sent + twinDone.counts.sent).toBe(ROWS);
    expect(done.counts.failed + twinDone.counts.failed).toBe(0);
    const invitations = await t.db.selectFrom('invitations').select(({ fn }) => fn.countAll<string>().as('n')).where('org_id', '=', orgA.id).where('email', 'like', 'bulk-%').executeTakeFirstOrThrow();
    expect(Number(invitations.n)).toBe(ROWS);
    // Once more, after: every row is already in the organisation; nothing can be sent.
    const again = (await api('POST', '/api/v1/admin/patient-imports/', tokens.adminA, file, { 'content-type': 'text/csv' })).json();
    expect(again.counts).toMatchObject({ ready: 0, skipped: ROWS });
    expect((await api('POST', `/api/v1/admin/patient-imports/${again.id}/send/`, tokens.adminA)).statusCode).toBe(409);
  });
});
