import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_SETUP_TOKEN_TTL_S } from '@healthbook/shared';
import { orgScope } from '../src/db/scope';
import { encodeUid, randomToken, sha256 } from '../src/lib/crypto';
import { UserTokensRepository } from '../src/modules/recovery/user-tokens.repository';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildGrant, buildInvitation, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * A deactivated organisation (issue 25 §2): nothing is done in its name through the public API
 * (sign-up, password recovery, access-code retrieval, set-password and care-network links,
 * sign-in), each refused with the same 403 `organization_deactivated` and a message naming it in
 * the reader's language, whether or not an account is behind the request (no enumeration), and
 * nothing written; a session opened before cannot create a share. Reactivation lets every one of
 * them through again.
 */

let t: TestApp;
let org: { id: number; name: string };
let superadmin: BuiltUser;
let patient: BuiltUser;
let staff: BuiltUser;
let superToken = '';

const post = (url: string, payload: object, lang = 'en', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'accept-language': lang, ...headers } });

beforeAll(async () => {
  t = await buildTestApp({ perIpLimitFloor: 10_000 });
  const home = await buildOrganization(t.app, { name: 'home-org' });
  org = await buildOrganization(t.app, { name: 'closing-doors', org_name: 'Closing Doors Clinic' });
  superadmin = await buildUser(t.app, { org: home, roles: ['org_admin'], is_superadmin: true });
  patient = await buildUser(t.app, { org, first_name: 'Petra', dob: '1980-04-05', gender: 'female' });
  // A provider made by an administrator: no password yet, a set-password link.
  staff = await buildUser(t.app, { org, roles: ['professional', 'provider'], first_name: 'Stavros' });
  await t.db.updateTable('users').set({ password_hash: null, email_confirmed_at: null }).where('id', '=', staff.id).execute();
  superToken = (await signIn(t.app, { email: superadmin.email, password: superadmin.password, org_id: home.id })).access;
});
afterAll(async () => {
  await t?.close();
});

const setActive = async (active: boolean) => {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/admin/organizations/${org.id}/${active ? 'reactivate' : 'deactivate'}/`, headers: bearer(superToken) });
  expect(res.statusCode, res.body).toBe(200);
};

/** Everything a request in the organisation's name may need, made fresh (each is used up by its success). */
async function material() {
  const invitation = await buildInvitation(t.app, { org, first_name: 'Iris', last_name: 'Invited', dob: '1991-02-03', gender: 'female' });
  const tokens = new UserTokensRepository(t.db);
  const reset = await tokens.issue(orgScope(org.id), patient.id, 'reset_password', 3600, { replace: true });
  const setup = await tokens.issue(orgScope(org.id), staff.id, 'account_setup', ACCOUNT_SETUP_TOKEN_TTL_S, { replace: true });
  const patientId = (await t.db.selectFrom('patients').select('id').where('user_id', '=', patient.id).executeTakeFirstOrThrow()).id;
  const careToken = randomToken(32);
  const grant = await buildGrant(t.app, { patient: { id: patientId, org_id: org.id }, grantee: null, status: 'pending', email: `carer-${careToken.slice(0, 6).toLowerCase()}@example.test` });
  await t.db.updateTable('patient_grants').set({ token_hash: sha256(careToken) }).where('id', '=', grant.id).execute();
  return { invitation, reset, setup, careToken };
}

type Material = Awaited<ReturnType<typeof material>>;

/** Each public route that acts in the organisation's name, with what it answers when the organisation is active. */
const routes: Array<{ name: string; ok: number; call: (m: Material, lang?: string) => ReturnType<typeof post> }> = [
  { name: 'sign-in', ok: 200, call: (_m, lang) => post('/api/v1/login/', { email: patient.email, password: patient.password, org: org.id }, lang) },
  { name: 'access-code validation', ok: 200, call: (m, lang) => post('/api/v1/users/validate/', { org_id: org.name, signup_code: m.invitation.code }, lang) },
  {
    name: 'sign-up',
    ok: 201,
    call: (m, lang) =>
      post(
        '/api/v1/users/register/',
        { org_id: org.id, email: m.invitation.email, password: 'Sign-Up#Pass42', signup_code: m.invitation.code, is_terms_privacy_policy_accepted: true },
        lang,
      ),
  },
  // Before the request below, which replaces the link.
  { name: 'password reset', ok: 200, call: (m, lang) => post('/api/v1/reset_password/confirm/', { uid: encodeUid(patient.id), token: m.reset, password: patient.password }, lang) },
  { name: 'password reset request', ok: 200, call: (_m, lang) => post('/api/v1/reset_password/', { org_id: org.name, email: patient.email }, lang) },
  { name: 'access-code retrieval', ok: 200, call: (_m, lang) => post('/api/v1/users/coderetrieval/', { org_id: org.id, first_name: 'Iris', last_name: 'Invited', DOB: '1991-02-03' }, lang) },
  { name: 'set-password link check', ok: 200, call: (m, lang) => post('/api/v1/account_setup/check/', { uid: encodeUid(staff.id), token: m.setup }, lang) },
  { name: 'set-password (staff invitation)', ok: 200, call: (m, lang) => post('/api/v1/account_setup/', { uid: encodeUid(staff.id), token: m.setup, password: 'Staff#First42' }, lang) },
  { name: 'care-network invitation preview', ok: 200, call: (m, lang) => post('/api/v1/care-network/invitations/preview/', { token: m.careToken }, lang) },
  {
    name: 'care-network invitation sign-up code',
    ok: 200,
    call: (m, lang) => post('/api/v1/care-network/invitations/signup-code/', { token: m.careToken, first_name: 'Carla', last_name: 'Carer', dob: '1970-01-01', gender: 'female' }, lang),
  },
];

const written = async () => ({
  users: await t.db.selectFrom('users').select(['id', 'password_hash', 'email_confirmed_at']).where('org_id', '=', org.id).orderBy('id').execute(),
  invitations: await t.db.selectFrom('invitations').select(['id', 'used_at', 'code_hash']).where('org_id', '=', org.id).orderBy('id').execute(),
  tokens: await t.db.selectFrom('user_tokens').select(['id', 'used_at']).where('org_id', '=', org.id).orderBy('id').execute(),
  grants: await t.db.selectFrom('patient_grants').select(['id', 'status']).where('org_id', '=', org.id).orderBy('id').execute(),
  mail: Number((await t.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n),
});

describe('a deactivated organisation', () => {
  it('refuses every public route acting in its name, with one localised answer, and writes nothing', async () => {
    const session = await signIn(t.app, { email: patient.email, password: patient.password, org_id: org.id });
    const m = await material();
    await setActive(false);
    await t.app.backgroundMail.drain();
    const before = await written();

    for (const route of routes) {
      const en = await route.call(m, 'en');
      expect(en.statusCode, `${route.name}: ${en.body}`).toBe(403);
      expect(en.json(), route.name).toMatchObject({ code: 'organization_deactivated', detail: expect.stringContaining('Closing Doors Clinic has been deactivated') });
      const el = await route.call(m, 'el');
      expect(el.statusCode, route.name).toBe(403);
      expect(el.json<{ detail: string }>().detail, route.name).toContain('Ο οργανισμός Closing Doors Clinic έχει απενεργοποιηθεί');
    }

    // A code used without naming its organisation is refused too (the code's organisation counts).
    const bare = await post('/api/v1/users/register/', { email: m.invitation.email, password: 'Sign-Up#Pass42', signup_code: m.invitation.code, is_terms_privacy_policy_accepted: true });
    expect(bare.statusCode, bare.body).toBe(403);

    // No enumeration: an address without an account gets the very same answer.
    const known = await post('/api/v1/reset_password/', { org_id: org.name, email: patient.email });
    const unknown = await post('/api/v1/reset_password/', { org_id: org.name, email: 'nobody-here@example.test' });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    const wrongPassword = await post('/api/v1/login/', { email: 'nobody-here@example.test', password: 'whatever', org: org.id });
    expect(wrongPassword.body).toBe((await post('/api/v1/login/', { email: patient.email, password: patient.password, org: org.id })).body);

    // A link or code that is not one still answers as before (an unproven link tells nothing of its organisation).
    expect((await post('/api/v1/reset_password/confirm/', { uid: encodeUid(patient.id), token: 'not-the-token', password: patient.password })).statusCode).toBe(400);
    expect((await post('/api/v1/account_setup/check/', { uid: encodeUid(staff.id), token: 'not-the-token' })).statusCode).toBe(400);
    expect((await post('/api/v1/care-network/invitations/preview/', { token: randomToken(32) })).statusCode).toBe(404);

    // A session opened before: ended, so no share can be created with it.
    const share = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sharing/',
      headers: bearer(session.access),
      payload: { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['condition'] },
    });
    expect(share.statusCode).toBe(401);
    expect(await t.db.selectFrom('shares').select('id').where('org_id', '=', org.id).execute()).toEqual([]);

    await t.app.backgroundMail.drain();
    expect(await written()).toEqual(before);
  });

  it('lets every one of them through again once reactivated', async () => {
    await setActive(true);
    const m = await material();
    for (const route of routes) {
      const res = await route.call(m);
      expect(res.statusCode, `${route.name}: ${res.body}`).toBe(route.ok);
    }
    const session = await signIn(t.app, { email: patient.email, password: patient.password, org_id: org.id });
    const share = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sharing/',
      headers: bearer(session.access),
      payload: { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['condition'] },
    });
    expect(share.statusCode, share.body).toBe(201);
    // The staff member's password is set: they sign in.
    await signIn(t.app, { email: staff.email, password: 'Staff#First42', org_id: org.id });
  });
});
