import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWarnings } from '../src/config';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildInvitation, buildMfaDevice, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { secretFromProvisioningUrl, totp } from './totp';

/**
 * Account protections a patient would expect: changes to second factors and to the sign-in
 * address ask for the password (or a code) again and are told by mail; a pending sign-in
 * learns nothing personal; administrators do not reach each other; the web app's refresh
 * token lives in an HttpOnly cookie.
 */

const PUBLIC_URL = 'https://hb.example';
let sink: SmtpSink;
let t: TestApp;
let org: { id: number; name: string; org_name: string };
let otherOrg: { id: number; name: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL } });
  org = await buildOrganization(t.app, { name: 'protect-a', org_name: 'Protect Clinic' });
  otherOrg = await buildOrganization(t.app, { name: 'protect-b' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

let seq = 0;
const address = (label: string) => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;
const newUser = (opts: Partial<Parameters<typeof buildUser>[1]> = {}) => buildUser(t.app, { org, email: address('p'), ...opts });
const tokenOf = async (u: BuiltUser) => (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), ...headers }, ...(payload ? { payload } : {}) });
const mail = (to: string, subject: RegExp) => sink.waitForMail(to, { subject });
const codeIn = (text: string | undefined) => /\b([0-9]{6})\b/.exec(text ?? '')?.[1];

describe('adding and removing a second factor asks for the password again', () => {
  it('refuses without it or with a wrong one, in the field the form shows', async () => {
    const user = await newUser();
    const token = await tokenOf(user);
    const missing = await call('POST', '/api/v1/mfa/register/totp/', token, { device_type: 'google' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ password: ['Enter your password to confirm it is you.'] });
    const wrong = await call('POST', '/api/v1/mfa/register/totp/', token, { device_type: 'google', password: 'Wrong#Pass1' }, { 'accept-language': 'el' });
    expect(wrong.json()).toEqual({ password: ['Το συνθηματικό δεν είναι σωστό.'] });
    expect(await t.db.selectFrom('mfa_devices').select('uuid').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('enrols with the password, tells the user by mail, and removing needs it again (and tells them too)', async () => {
    const user = await newUser({ first_name: 'Eleni' });
    const token = await tokenOf(user);
    const reg = await call('POST', '/api/v1/mfa/register/totp/', token, { device_type: 'google', password: user.password });
    expect(reg.statusCode).toBe(201);
    const secret = secretFromProvisioningUrl(reg.json().provisioning_url);
    expect((await call('POST', '/api/v1/verify/', token, { code: totp(secret) })).statusCode).toBe(200);
    const enabled = await mail(user.email, /Two-step verification is on/);
    expect(enabled.text).toContain('authenticator app');

    const uuid = reg.json().uuid as string;
    expect((await call('DELETE', `/api/v1/mfa/${uuid}`, token)).json()).toEqual({ password: ['Enter your password to confirm it is you.'] });
    // A code from the authenticator proves it as well as the password (a fresh step: codes are single use).
    const code = totp(secret, Date.now() + 30_000);
    const removed = await call('DELETE', `/api/v1/mfa/${uuid}`, token, { code });
    expect(removed.statusCode).toBe(204);
    const notice = await mail(user.email, /was removed/);
    expect(notice.text).toContain('Hello Eleni,');
    expect((await call('GET', '/api/v1/me/', token)).json()).toMatchObject({ has_mfa_enabled: false });
  });

  it('cancelling an enrolment that was never confirmed needs no password', async () => {
    const user = await newUser();
    const token = await tokenOf(user);
    const reg = await call('POST', '/api/v1/mfa/register/totp/', token, { device_type: 'google', password: user.password });
    expect((await call('DELETE', `/api/v1/mfa/${reg.json().uuid}`, token)).statusCode).toBe(204);
  });

  it('a user with e-mail codes may ask for a code and use it instead of the password', async () => {
    const user = await newUser();
    await buildMfaDevice(t.app, { user, type: 'email' });
    const limited = await signIn(t.app, { email: user.email, password: user.password, org_id: org.id });
    const signInCode = codeIn((await mail(user.email, /verification code/)).text)!;
    const full = (await call('POST', '/api/v1/verify/', limited.access, { code: signInCode })).json().access as string;
    sink.messages.length = 0;
    expect((await call('POST', '/api/v1/me/reauth_code/', full)).json()).toEqual({ detail: 'We e-mailed you a verification code.' });
    const code = codeIn((await mail(user.email, /verification code/)).text)!;
    expect((await call('POST', '/api/v1/mfa/register/totp/', full, { device_type: 'google', code })).statusCode).toBe(201);
    // Single use.
    expect((await call('POST', '/api/v1/mfa/register/totp/', full, { device_type: 'google', code })).json()).toEqual({ code: ['The code is invalid or has expired.'] });
    // Without an e-mail factor there is nothing to send.
    const plain = await tokenOf(await newUser());
    expect((await call('POST', '/api/v1/me/reauth_code/', plain)).statusCode).toBe(400);
  });
});

describe('changing the sign-in address', () => {
  it('needs the password, confirms the new address by a link, tells the old one, and moves the sign-in', async () => {
    const user = await newUser({ first_name: 'Nikos' });
    const token = await tokenOf(user);
    const next = address('new');
    expect((await call('POST', '/api/v1/me/email/', token, { email: next })).json()).toEqual({ password: ['Enter your password to confirm it is you.'] });
    const res = await call('POST', '/api/v1/me/email/', token, { email: next.toUpperCase(), password: user.password });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ detail: `We sent a link to ${next}. Your sign-in address changes when you open it.` });
    // Nothing changes before the link is opened.
    expect((await call('GET', '/api/v1/me/', token)).json()).toMatchObject({ email: user.email });

    const confirmMail = await mail(next, /Confirm your new e-mail address/);
    const link = new RegExp(`${PUBLIC_URL}/protect-a/email/change/([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)`).exec(confirmMail.text ?? '')!;
    expect(link).not.toBeNull();
    const confirmed = await call('POST', '/api/v1/users/confirm_email_change/', undefined, { uid: link[1], token: link[2] });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ detail: `Your sign-in address is now ${next}.` });
    const notice = await mail(user.email, /sign-in address was changed/);
    expect(notice.text).toContain(next);

    expect((await call('POST', '/api/v1/login/', undefined, { email: next, password: user.password, org: org.id })).statusCode).toBe(200);
    expect((await call('POST', '/api/v1/login/', undefined, { email: user.email, password: user.password, org: org.id })).statusCode).toBe(401);
    // The link works once.
    expect((await call('POST', '/api/v1/users/confirm_email_change/', undefined, { uid: link[1], token: link[2] })).statusCode).toBe(400);
  });

  it('answers the same for an address that already has an account, changes nothing and tells its owner', async () => {
    const owner = await newUser();
    const user = await newUser();
    const token = await tokenOf(user);
    const fresh = await call('POST', '/api/v1/me/email/', token, { email: address('free'), password: user.password });
    const taken = await call('POST', '/api/v1/me/email/', token, { email: owner.email, password: user.password });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.json().detail.replace(owner.email, 'X')).toBe(fresh.json().detail.replace(/\S+@example\.test/, 'X'));
    const told = await mail(owner.email, /About your/);
    expect(told.text).toContain('already belongs to an account');
  });
});

describe('the sign-in answer while the second factor is pending', () => {
  it('carries only what the verification page needs: no date of birth, address, phone, e-mail or device ids', async () => {
    const user = await newUser({ dob: '1970-01-02' });
    await t.db.updateTable('users').set({ address: '1 Secret Street', phone_number: '+30 210 000' }).where('id', '=', user.id).execute();
    await buildMfaDevice(t.app, { user, type: 'email' });
    const res = await call('POST', '/api/v1/login/', undefined, { email: user.email, password: user.password, org: org.id });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(Object.keys(answer.user).sort()).toEqual(['first_name', 'has_mfa_enabled', 'mfa_devices', 'settings', 'user_id', 'user_org_details']);
    expect(answer.user.mfa_devices).toEqual([{ device_type: 'email' }]);
    expect(res.body).not.toMatch(/1970|Secret Street|210 000|@example\.test/);
    // No refresh cookie until the sign-in is complete.
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('administrators', () => {
  it('an organisation admin cannot read or change a super admin or another admin, but can a patient; every refusal is audited', async () => {
    const admin = await newUser({ roles: ['org_admin'] });
    const otherAdmin = await newUser({ roles: ['org_admin'] });
    const superAdmin = await newUser({ roles: ['org_admin'], is_superadmin: true });
    const patient = await newUser();
    const elsewhere = await buildUser(t.app, { org: otherOrg, email: address('far') });
    const token = await tokenOf(admin);
    for (const target of [otherAdmin, superAdmin, elsewhere]) {
      expect((await call('GET', `/api/v1/users/${target.id}`, token)).statusCode).toBe(404);
      expect((await call('PUT', `/api/v1/users/${target.id}`, token, { city: 'Nowhere' })).statusCode).toBe(404);
    }
    expect((await call('GET', `/api/v1/users/${patient.id}`, token)).statusCode).toBe(200);
    const denied = await t.db
      .selectFrom('audit_log')
      .select(['subject', 'action'])
      .where('actor_user_id', '=', admin.id)
      .where('outcome', '=', 'denied')
      .execute();
    expect(denied.map((d) => d.subject).sort()).toEqual(
      [otherAdmin, otherAdmin, superAdmin, superAdmin, elsewhere, elsewhere].map((u) => `user:${u.id}`).sort(),
    );
    // A super admin reaches anyone.
    expect((await call('GET', `/api/v1/users/${otherAdmin.id}`, await tokenOf(superAdmin))).statusCode).toBe(200);
  });

  it("a patient asking for someone else's record is refused and audited", async () => {
    const patient = await newUser();
    const other = await newUser();
    expect((await call('GET', `/api/v1/users/${other.id}`, await tokenOf(patient))).statusCode).toBe(404);
    const rows = await t.db.selectFrom('audit_log').select('subject').where('actor_user_id', '=', patient.id).where('outcome', '=', 'denied').execute();
    expect(rows).toEqual([{ subject: `user:${other.id}` }]);
  });
});

describe('the refresh token in an HttpOnly cookie', () => {
  const cookies = (res: { headers: Record<string, unknown> }) => [res.headers['set-cookie']].flat().filter(Boolean) as string[];
  const cookieValue = (res: { headers: Record<string, unknown> }) => /hb_refresh=([^;]*)/.exec(cookies(res)[0] ?? '')?.[1] ?? '';

  it('is set at sign-in for the refresh and logout paths only, HttpOnly, Secure, SameSite=Strict', async () => {
    const user = await newUser();
    const res = await call('POST', '/api/v1/login/', undefined, { email: user.email, password: user.password, org: org.id });
    const set = cookies(res);
    expect(set).toHaveLength(2);
    for (const cookie of set) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/Secure/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Max-Age=604800/);
    }
    expect(set.map((c) => /Path=([^;]+)/.exec(c)![1]).sort()).toEqual(['/api/v1/logout/', '/api/v1/refresh/']);
    // The JSON field stays for clients of the original contract.
    expect(cookieValue(res)).toBe(res.json().refresh);
  });

  it('renews from the cookie alone (rotating it), and signing out with the cookie ends the session and clears it', async () => {
    const user = await newUser();
    const login = await call('POST', '/api/v1/login/', undefined, { email: user.email, password: user.password, org: org.id });
    const first = cookieValue(login);
    const renewed = await call('POST', '/api/v1/refresh/', undefined, {}, { cookie: `hb_refresh=${first}` });
    expect(renewed.statusCode).toBe(200);
    const second = cookieValue(renewed);
    expect(second).not.toBe(first);
    expect(second).toBe(renewed.json().refresh);
    // Without body or cookie: nothing to renew.
    expect((await call('POST', '/api/v1/refresh/', undefined, {})).statusCode).toBe(401);

    const out = await call('POST', '/api/v1/logout/', undefined, {}, { cookie: `hb_refresh=${second}` });
    expect(out.statusCode).toBe(204);
    for (const cookie of cookies(out)) expect(cookie).toMatch(/hb_refresh=;.*Max-Age=0/);
    expect((await call('GET', '/api/v1/me/', renewed.json().access)).statusCode).toBe(401);
  });

  it('is set when the second factor completes the sign-in', async () => {
    const user = await newUser();
    await buildMfaDevice(t.app, { user, type: 'email' });
    sink.messages.length = 0;
    const limited = await signIn(t.app, { email: user.email, password: user.password, org_id: org.id });
    const code = codeIn((await mail(user.email, /verification code/)).text)!;
    const verified = await call('POST', '/api/v1/verify/', limited.access, { code });
    expect(verified.statusCode).toBe(200);
    expect(cookieValue(verified)).toBe(verified.json().refresh);
  });
});

describe('registration does not tell whether an address has an account', () => {
  it('the same answer for a taken and a free address (covered in detail in signup.int.test.ts)', async () => {
    const existing = await newUser();
    const [a, b] = await Promise.all([buildInvitation(t.app, { org }), buildInvitation(t.app, { org })]);
    const form = (inv: { code: string; first_name: string; last_name: string; dob: string; gender: string }, email: string) => ({
      email,
      password: 'Good#Password1',
      signup_code: inv.code,
      is_terms_privacy_policy_accepted: true,
      org_id: org.id,
    });
    const taken = await call('POST', '/api/v1/users/register/', undefined, form(a, existing.email));
    const free = await call('POST', '/api/v1/users/register/', undefined, form(b, address('free')));
    expect([taken.statusCode, taken.body]).toEqual([free.statusCode, free.body]);
  });
});

describe('in production', () => {
  /** A TURN relay, so that only the mail's warning is in question here (config.test.ts has the TURN one). */
  const RELAY = { urls: ['turn:turn.example.org'], secret: 'a-secret-shared-with-coturn' };
  it('hides the API documentation unless API_DOCS=true, and warns loudly without SMTP_URL', async () => {
    expect(configWarnings({ env: 'production', smtpUrl: undefined, turn: RELAY })).toEqual([expect.stringContaining('SMTP_URL is not set in production')]);
    expect(configWarnings({ env: 'production', smtpUrl: sink.url, turn: RELAY })).toEqual([]);
    expect(configWarnings({ env: 'development', smtpUrl: undefined, turn: RELAY })).toEqual([]);
    const prod = await buildTestApp({ env: { NODE_ENV: 'production' } });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
      expect((await prod.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
    const documented = await buildTestApp({ env: { NODE_ENV: 'production', API_DOCS: 'true', SMTP_URL: sink.url } });
    try {
      expect((await documented.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    } finally {
      await documented.close();
    }
    // Two more applications, each migrating its own database.
  }, 90_000);
});
