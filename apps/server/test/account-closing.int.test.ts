// On PostgreSQL too (vitest.config.ts): 8 closings of one account sent at once.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { translate, type ClosingPreview } from '@healthbook/shared';
import { systemContext } from '../src/context';
import { ERASURE_PLAN, uncoveredPatientTables } from '../src/modules/account-closing/erasure-plan';
import { PATIENT_TABLES } from '../src/modules/patients/patient-tables';
import { useTestApp } from './build-app';
import { checkErasure, rowsReferring, seedPatientData } from './account-closing-data';
import { bearer, buildGrant, buildOrganization, buildUser, signIn, type BuiltOrganization, type BuiltUser } from './factories';

/**
 * A patient's right to leave (issue 25 §4): closing the account (password again, one closing
 * however many requests, sessions ended, e-mailed), cancelling it by signing in again, the
 * administrators' list, and the erasure: after it, no row of any table and no stored file
 * refers to the patient, and everyone else's data is as it was.
 */

const t = useTestApp();

let orgA: BuiltOrganization;
let orgB: BuiltOrganization;
let adminA: BuiltUser;
let adminB: BuiltUser;
let superadmin: BuiltUser;
let provider: BuiltUser;

beforeAll(async () => {
  orgA = await buildOrganization(t.app);
  orgB = await buildOrganization(t.app);
  adminA = await buildUser(t.app, { org: orgA, roles: ['org_admin'] });
  adminB = await buildUser(t.app, { org: orgB, roles: ['org_admin'] });
  superadmin = await buildUser(t.app, { org: orgB, roles: [], is_superadmin: true });
  provider = await buildUser(t.app, { org: orgA, roles: ['provider'] });
});

async function makePatient(org: { id: number }, name = `P${randomBytes(4).toString('hex')}`) {
  const user = await buildUser(t.app, { org, first_name: name, last_name: `${name}son`, email: `${name.toLowerCase()}@example.test` });
  const patient = await t.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  return { user, patientId: patient.id, name };
}

const mailTo = async (to: string) => {
  await t.app.backgroundMail.drain();
  return t.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', to).orderBy('id').execute();
};
const closings = (userId: number) => t.db.selectFrom('account_closings').selectAll().where('user_id', '=', userId).execute();
const close = (token: string, payload: object, lang = 'en') =>
  t.app.inject({ method: 'POST', url: '/api/v1/me/closing/', headers: { ...bearer(token), 'accept-language': lang }, payload });
const makeDue = (id: number) => t.db.updateTable('account_closings').set({ erase_after: new Date(Date.now() - 60_000) }).where('id', '=', id).execute();
const eraseDue = async () => {
  // The closing's own e-mail is on its way (days before the erasure, in life).
  await t.app.backgroundMail.drain();
  return t.app.accountClosing.eraseDue(systemContext(t.app.log));
};

describe('closing one’s account', () => {
  it('GET /me/closing/ names the family members only this account manages (not one shared with another carer)', async () => {
    const p = await makePatient(orgA);
    const other = await makePatient(orgA);
    const sole = await t.db.insertInto('patients').values({ org_id: orgA.id, user_id: null, first_name: 'Sole', last_name: 'Child' }).returning('id').executeTakeFirstOrThrow();
    const shared = await t.db.insertInto('patients').values({ org_id: orgA.id, user_id: null, first_name: 'Shared', last_name: 'Child' }).returning('id').executeTakeFirstOrThrow();
    await buildGrant(t.app, { patient: { id: sole.id, org_id: orgA.id }, grantee: p.user, kind: 'dependant' });
    await buildGrant(t.app, { patient: { id: shared.id, org_id: orgA.id }, grantee: p.user, kind: 'dependant' });
    await buildGrant(t.app, { patient: { id: shared.id, org_id: orgA.id }, grantee: other.user, kind: 'dependant' });
    const { access } = await signIn(t.app, p.user);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me/closing/', headers: bearer(access) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ can_close: true, grace_days: 14, dependants: [{ id: sole.id, first_name: 'Sole', last_name: 'Child' }] });
    const staff = await signIn(t.app, provider);
    const staffRes = await t.app.inject({ method: 'GET', url: '/api/v1/me/closing/', headers: bearer(staff.access) });
    expect(staffRes.json()).toMatchObject({ can_close: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/closing/' })).statusCode).toBe(401);
  });

  it('a wrong or missing password: 400 under password, localised, and nothing changes', async () => {
    const p = await makePatient(orgA);
    const { access } = await signIn(t.app, p.user);
    for (const lang of ['en', 'el'] as const) {
      const res = await close(access, { password: 'not-the-password' }, lang);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ password: [translate(lang, 'validation:reauthPasswordWrong')] });
    }
    const missing = await close(access, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ password: [translate('en', 'validation:reauthRequired')] });
    const badCode = await close(access, { code: 'abc' });
    expect(badCode.statusCode).toBe(400);
    expect(Object.keys(badCode.json())).toEqual(['code']);
    expect(await closings(p.user.id)).toEqual([]);
    // Still signed in.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(access) })).statusCode).toBe(200);
    expect(await mailTo(p.user.email)).toEqual([]);
  });

  it('a staff account cannot be closed here: 403, localised', async () => {
    const { access } = await signIn(t.app, provider);
    const res = await close(access, { password: provider.password }, 'el');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: translate('el', 'errors:closingStaffAccount') });
    expect(await closings(provider.id)).toEqual([]);
  });

  it('many requests at once make one closing and one e-mail; every session ends', async () => {
    const p = await makePatient(orgA);
    const first = await signIn(t.app, p.user);
    const second = await signIn(t.app, p.user);
    const answers = await Promise.all(Array.from({ length: 8 }, () => close(first.access, { password: p.user.password })));
    const codes = answers.map((r) => r.statusCode);
    expect(codes).toContain(202);
    for (const code of codes) expect([202, 401, 429]).toContain(code);
    const rows = await closings(p.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('pending');
    const ok = answers.find((r) => r.statusCode === 202)!.json();
    expect(new Date(ok.erase_after).getTime()).toBeGreaterThan(Date.now() + 13.9 * 86_400_000);
    const mails = await mailTo(p.user.email);
    expect(mails.filter((m) => m.subject.startsWith(translate('en', 'emails:accountClosing.subject', { orgName: orgA.org_name, date: '' }).split(' ')[0]!))).toHaveLength(1);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain('/login');
    for (const token of [first.access, second.access]) expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('signing in again within the period cancels the closing, and says so by e-mail', async () => {
    const p = await makePatient(orgA);
    const { access } = await signIn(t.app, p.user);
    expect((await close(access, { password: p.user.password })).statusCode).toBe(202);
    await signIn(t.app, p.user);
    const [row] = await closings(p.user.id);
    expect(row).toMatchObject({ status: 'cancelled' });
    expect(row!.cancelled_at).not.toBeNull();
    const mails = await mailTo(p.user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringContaining(orgA.org_name),
      translate('en', 'emails:accountClosingCancelled.subject', { orgName: orgA.org_name }),
    ]);
    // A cancelled closing is never erased.
    await t.db.updateTable('account_closings').set({ erase_after: new Date(Date.now() - 60_000) }).where('id', '=', row!.id).execute();
    await eraseDue();
    expect(await t.db.selectFrom('users').select('id').where('id', '=', p.user.id).executeTakeFirst()).toBeDefined();
    // And the account can close again.
    const again = await signIn(t.app, p.user);
    expect((await close(again.access, { password: p.user.password })).statusCode).toBe(202);
    expect((await closings(p.user.id)).map((r) => r.status).sort()).toEqual(['cancelled', 'pending']);
  });

  it('GET /account_closings/: an organisation’s admin sees its pending closings; another organisation 404; a patient 403; a super admin any', async () => {
    const p = await makePatient(orgA);
    const { access } = await signIn(t.app, p.user);
    expect((await close(access, { password: p.user.password })).statusCode).toBe(202);
    const list = async (user: BuiltUser, query = '') => t.app.inject({ method: 'GET', url: `/api/v1/account_closings/${query}`, headers: bearer((await signIn(t.app, user)).access) });
    const mine = await list(adminA);
    expect(mine.statusCode).toBe(200);
    const found = mine.json().results.find((r: { user_id: number }) => r.user_id === p.user.id);
    expect(found).toMatchObject({ first_name: p.user.first_name, email: p.user.email, dependants: 0 });
    expect((await list(adminB)).json().results.find((r: { user_id: number }) => r.user_id === p.user.id)).toBeUndefined();
    const across = await list(adminB, `?org=${orgA.id}`);
    expect(across.statusCode).toBe(404);
    const patient = await makePatient(orgA);
    expect((await list(patient.user)).statusCode).toBe(403);
    const sa = await list(superadmin, `?org=${orgA.id}`);
    expect(sa.statusCode).toBe(200);
    expect(sa.json().results.some((r: { user_id: number }) => r.user_id === p.user.id)).toBe(true);
    const bad = await list(adminA, '?org=abc');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toContain('org');
  });
});

describe('the erasure', () => {
  it('the plan covers every declared patient table; a table left out is named (and the job refuses to run)', () => {
    expect(uncoveredPatientTables()).toEqual([]);
    expect(ERASURE_PLAN.map((s) => s.table).sort()).toEqual(Object.keys(PATIENT_TABLES).sort());
    expect(uncoveredPatientTables(ERASURE_PLAN.filter((s) => s.table !== 'journal_entries'))).toEqual(['journal_entries']);
  });

  it('leaves no row of any table and no file that refers to the patient; everyone else’s data stays; the other side is told; links answer revoked', async () => {
    await checkErasure(t, t.dataDir);
  });

  it('GET /me/closing/ counts what the erasure then deletes: the same rows per table and the same files', async () => {
    const p = await makePatient(orgA);
    const { keys } = await seedPatientData(t.db, t.app.storage, { orgId: orgA.id, patientId: p.patientId, userId: p.user.id, providerId: provider.id, records: 7, files: 4, tag: p.name });
    const { access } = await signIn(t.app, p.user);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/me/closing/', headers: bearer(access) });
    expect(res.statusCode, res.body).toBe(200);
    const { erases } = res.json<ClosingPreview>();
    expect(erases.rows).toMatchObject({ health_records: 7, health_record_versions: 7, documents: 4, journal_entries: 1, calendar_events: 1, chat_conversations: 2, chat_messages: 3, shares: 1, insurance_cards: 1, exports: 1 });
    // 4 documents, 2 card photos, a chat file, an export.
    expect(erases.files).toBe(keys.length);
    expect(Object.keys(erases.rows).sort()).toEqual(ERASURE_PLAN.map((step) => step.table).sort());

    expect((await close(access, { password: p.user.password })).statusCode).toBe(202);
    const [row] = await closings(p.user.id);
    await makeDue(row!.id);
    const summary = (await eraseDue()).find((s) => s.closingId === row!.id)!;
    for (const step of ERASURE_PLAN) expect(summary.rows[step.table], step.table).toBe(erases.rows[step.table]);
    expect(summary.files).toBe(erases.files);
  });

  it('measures the erasure of a patient with 1,000 records and 100 files', async () => {
    const p = await makePatient(orgA);
    const { keys } = await seedPatientData(t.db, t.app.storage, { orgId: orgA.id, patientId: p.patientId, userId: p.user.id, providerId: provider.id, records: 1000, files: 100, tag: p.name });
    const { access } = await signIn(t.app, p.user);
    expect((await close(access, { password: p.user.password })).statusCode).toBe(202);
    const [row] = await closings(p.user.id);
    await makeDue(row!.id);
    const started = performance.now();
    const [summary] = await eraseDue();
    const ms = Math.round(performance.now() - started);
    expect(summary).toMatchObject({ filesFailed: 0 });
    expect(summary!.rows.health_records).toBe(1000);
    expect(summary!.rows.health_record_versions).toBe(1000);
    expect(summary!.rows.documents).toBe(100);
    for (const key of keys) expect(await t.app.storage.get(key)).toBeNull();
    const left = await rowsReferring(t.db, p.user.id, [p.patientId], [p.name.toLowerCase()]);
    expect(left).toEqual({});
    console.log(`[erasure] 1,000 records + ${keys.length} files (100 documents): ${ms} ms (job ${summary!.ms} ms); rows left: ${JSON.stringify(left)}; files left: 0`);
  });
});

