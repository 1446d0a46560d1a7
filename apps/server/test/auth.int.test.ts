import { createSigner } from 'fast-jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_JWT_SECRET, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { secretFromProvisioningUrl, totp } from './totp';

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const codeIn = (text: string | undefined) => /\b([0-9]{6})\b/.exec(text ?? '')?.[1];
/** The next verification-code mail to an address (notices about the account may arrive too). */
const codeMail = (to: string) => sink.waitForMail(to, { subject: /verification code/ });

let sink: SmtpSink;
let t: TestApp;
let orgA: { id: number; name: string };
let orgB: { id: number; name: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url } });
  orgA = await buildOrganization(t.app, { name: 'clinic-a' });
  orgB = await buildOrganization(t.app, { name: 'clinic-b' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const login = (payload: Record<string, unknown>, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/login/', payload, headers, ...(remoteAddress ? { remoteAddress } : {}) });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(token) });
const newUser = async (opts: Partial<Parameters<typeof buildUser>[1]> = {}) =>
  buildUser(t.app, { org: orgA, email: `u${Math.random().toString(36).slice(2)}@example.test`, ...opts });
const creds = (u: BuiltUser) => ({ email: u.email, password: u.password, org_id: u.org_id });

describe('sign-in', () => {
  it('answers a full access token, a refresh token and the user (no secrets)', async () => {
    const user = await newUser({ first_name: 'Eleni' });
    const res = await login({ email: user.email.toUpperCase(), password: user.password, org: orgA.id });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(decode(body.access)).toMatchObject({ token_type: 'access', user_id: user.id, org: orgA.id, access: 'full' });
    expect(decode(body.refresh)).toMatchObject({ token_type: 'refresh', user_id: user.id });
    expect(body.user).toMatchObject({ user_id: user.id, first_name: 'Eleni', has_mfa_enabled: false, mfa_devices: [] });
    expect(res.body).not.toMatch(/argon2|password_hash/);
    expect((decode(body.access).exp as number) - (decode(body.access).iat as number)).toBe(15 * 60);
    expect((await me(body.access)).json()).toMatchObject({ user_id: user.id, email: user.email });
  });

  it('takes the organisation by client id too', async () => {
    const user = await newUser();
    expect((await login({ email: user.email, password: user.password, org: 'clinic-a' })).statusCode).toBe(200);
  });

  it('gives the same 401 for a wrong password, an unknown account and another organisation, in any language', async () => {
    const user = await newUser();
    const answers = await Promise.all([
      login({ email: user.email, password: 'Wrong#Password1', org: orgA.id }),
      login({ email: 'nobody@example.test', password: user.password, org: orgA.id }, { 'accept-language': 'el' }),
      login({ email: user.email, password: user.password, org: orgB.id }),
      login({ email: user.email, password: user.password, org: 'no-such-org' }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Incorrect authentication credentials.' });
    }
  });

  it('refuses a disabled account like a wrong password', async () => {
    const user = await newUser({ is_active: false });
    expect((await login({ email: user.email, password: user.password, org: orgA.id })).statusCode).toBe(401);
  });

  it('refuses an unconfirmed e-mail with a message that says so (only with the right password)', async () => {
    const user = await newUser({ email_confirmed: false });
    const res = await login({ email: user.email, password: user.password, org: orgA.id }, { 'accept-language': 'el' });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/Επιβεβαιώστε τη διεύθυνση e-mail/);
    expect((await login({ email: user.email, password: 'Wrong#Password1', org: orgA.id })).statusCode).toBe(401);
  });

  it('validates the body with field errors', async () => {
    const res = await login({ email: '', org: orgA.id });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('locks an account for 15 minutes after 5 failures, whatever the IP or X-Forwarded-For', async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++) {
      const res = await login({ email: user.email, password: `Wrong#${i}Aa`, org: orgA.id }, { 'x-forwarded-for': `10.0.0.${i}` }, `192.0.2.${i}`);
      expect(res.statusCode).toBe(401);
    }
    const locked = await login({ email: user.email, password: user.password, org: orgA.id }, { 'x-forwarded-for': '10.9.9.9' }, '198.51.100.7');
    expect(locked.statusCode).toBe(429);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.json().detail).toMatch(/Too many failed sign-in attempts/);
    // Another account is not affected.
    const other = await newUser();
    expect((await login({ email: other.email, password: other.password, org: orgA.id })).statusCode).toBe(200);
  });

  it('locks an unknown account the same way (no enumeration)', async () => {
    for (let i = 0; i < 5; i++) await login({ email: 'ghost@example.test', password: 'Wrong#1Aa', org: orgA.id });
    const res = await login({ email: 'ghost@example.test', password: 'Wrong#1Aa', org: orgA.id });
    expect(res.statusCode).toBe(429);
  });

  it('writes sign-ins and failures to the audit log without secrets', async () => {
    const user = await newUser();
    await login({ email: user.email, password: 'Wrong#Password1', org: orgA.id });
    await login({ email: user.email, password: user.password, org: orgA.id });
    const rows = await t.db.selectFrom('audit_log').selectAll().where('subject', '=', `${orgA.id}:${user.email}`).orderBy('id').execute();
    expect(rows.map((r) => [r.action, r.outcome])).toEqual([
      ['login', 'failure'],
      ['login', 'success'],
    ]);
    expect(rows[1]).toMatchObject({ actor_user_id: user.id, org_id: orgA.id, ip: '127.0.0.1' });
    expect(JSON.stringify(rows)).not.toMatch(/Wrong#Password1|Correct-Horse/);
  });
});

describe('tokens', () => {
  it('refuses alg none, another algorithm, another key, an expired token and a refresh token used as access', async () => {
    const user = await newUser();
    const { access, refresh } = await signIn(t.app, creds(user));
    const claims = decode(access);
    const header = (obj: object) => Buffer.from(JSON.stringify(obj)).toString('base64url');
    const none = `${header({ alg: 'none', typ: 'JWT' })}.${header(claims)}.`;
    const hs512 = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS512' })({ ...claims, exp: undefined });
    const otherKey = createSigner({ key: 'another-secret-another-secret-another-secret' })({ ...claims, exp: undefined });
    const expired = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' })({ ...claims, iat: 1_000, exp: 2_000 });
    for (const token of [none, hs512, otherKey, expired, refresh, 'garbage']) {
      const res = await me(token);
      expect(res.statusCode, token.slice(0, 20)).toBe(401);
      expect(res.json()).toHaveProperty('detail');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/' })).statusCode).toBe(401);
    expect((await me(access)).statusCode).toBe(200);
  });

  it('rotates the refresh token; replaying a rotated one ends the whole session', async () => {
    const user = await newUser();
    const first = await signIn(t.app, creds(user));
    const r1 = await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh: first.refresh } });
    expect(r1.statusCode).toBe(200);
    const second = r1.json();
    expect(second.refresh).not.toBe(first.refresh);
    expect((await me(second.access)).statusCode).toBe(200);

    const replay = await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh: first.refresh } });
    expect(replay.statusCode).toBe(401);
    expect((await me(second.access)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh: second.refresh } })).statusCode).toBe(401);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'outcome']).where('action', '=', 'refresh_reuse').where('actor_user_id', '=', user.id).execute();
    expect(audit).toEqual([{ action: 'refresh_reuse', outcome: 'denied' }]);
  });

  it('logout revokes the session at once', async () => {
    const user = await newUser();
    const { access, refresh } = await signIn(t.app, creds(user));
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/logout/', payload: { refresh } });
    expect(res.statusCode).toBe(204);
    expect((await me(access)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/logout/', payload: { refresh: 'not-a-token' } })).statusCode).toBe(401);
  });

  it('another session of the same user is not affected by a logout', async () => {
    const user = await newUser();
    const a = await signIn(t.app, creds(user));
    const b = await signIn(t.app, creds(user));
    await t.app.inject({ method: 'POST', url: '/api/v1/logout/', payload: { refresh: a.refresh } });
    expect((await me(b.access)).statusCode).toBe(200);
  });
});

describe('second factor: e-mail codes', () => {
  it('enrols with a code, then signs in in two steps; the limited pair stops working', async () => {
    const user = await newUser();
    const full = await signIn(t.app, creds(user));
    const reg = await t.app.inject({ method: 'POST', url: '/api/v1/mfa/register/hotp/', headers: bearer(full.access), payload: { device_type: 'email', password: user.password } });
    expect(reg.statusCode).toBe(201);
    expect(reg.json()).toMatchObject({ device_type: 'email', confirmed: false });
    const enrolMail = await codeMail(user.email);
    const enrolCode = codeIn(enrolMail.text)!;
    expect(enrolCode).toMatch(/^[0-9]{6}$/);
    sink.messages.length = 0;

    // Not enabled until a valid code: a sign-in now is still full.
    expect(decode((await signIn(t.app, creds(user))).access).access).toBe('full');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(full.access), payload: { code: enrolCode === '000000' ? '111111' : '000000' } });
    expect(wrong.statusCode).toBe(400);
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(full.access), payload: { code: enrolCode } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ has_mfa_enabled: true, mfa_devices: [{ device_type: 'email' }] });

    sink.messages.length = 0;
    const limited = await signIn(t.app, creds(user));
    expect(decode(limited.access).access).toBe('limited');
    expect((await me(limited.access)).statusCode).toBe(403);
    const mail = await codeMail(user.email);
    const code = codeIn(mail.text)!;
    const verified = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(limited.access), payload: { code } });
    expect(verified.statusCode).toBe(200);
    const body = verified.json();
    expect(body).toMatchObject({ user_id: user.id, has_mfa_enabled: true });
    expect(decode(body.access).access).toBe('full');
    expect((await me(body.access)).statusCode).toBe(200);
    // The limited pair no longer works, and the code cannot be used twice.
    expect((await me(limited.access)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(limited.access), payload: { code } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh: limited.refresh } })).statusCode).toBe(401);
  });

  it('a code from one sign-in does not work for another', async () => {
    const user = await newUser();
    await enableEmailFactor(user);
    sink.messages.length = 0;
    const first = await signIn(t.app, creds(user));
    const code1 = codeIn((await codeMail(user.email)).text)!;
    sink.messages.length = 0;
    const second = await signIn(t.app, creds(user));
    await codeMail(user.email);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(second.access), payload: { code: code1 } });
    expect(res.statusCode).toBe(400);
    expect(first.access).not.toBe(second.access);
  });

  it('five wrong codes end the pending sign-in', async () => {
    const user = await newUser();
    await enableEmailFactor(user);
    const limited = await signIn(t.app, creds(user));
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(limited.access), payload: { code: `00000${i}` } })).statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 401]);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(limited.access), payload: { code: '123456' } })).statusCode).toBe(401);
  });

  it('refuses malformed codes with a field error', async () => {
    const user = await newUser();
    const { access } = await signIn(t.app, creds(user));
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(access), payload: { code } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toHaveProperty('code');
    }
  });
});

describe('second factor: authenticator app (RFC 6238)', () => {
  it('enrols with a code computed independently, signs in with it, and refuses a used code', async () => {
    const user = await newUser();
    const full = await signIn(t.app, creds(user));
    const reg = await t.app.inject({ method: 'POST', url: '/api/v1/mfa/register/totp/', headers: bearer(full.access), payload: { device_type: 'google', password: user.password } });
    expect(reg.statusCode).toBe(201);
    const url = reg.json().provisioning_url as string;
    expect(url).toMatch(/^otpauth:\/\/totp\//);
    const secret = secretFromProvisioningUrl(url);
    const enrol = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(full.access), payload: { code: totp(secret, Date.now(), -1) } });
    expect(enrol.statusCode).toBe(200);
    expect(enrol.json().mfa_devices).toEqual([expect.objectContaining({ device_type: 'google' })]);

    const limited = await signIn(t.app, creds(user));
    expect(decode(limited.access).access).toBe('limited');
    // The enrolment used the previous step: that code is refused now; a later one is taken once.
    const reused = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(limited.access), payload: { code: totp(secret, Date.now(), -1) } });
    expect(reused.statusCode).toBe(400);
    const code = totp(secret);
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(limited.access), payload: { code } });
    expect(ok.statusCode).toBe(200);

    const again = await signIn(t.app, creds(user));
    const replay = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(again.access), payload: { code } });
    expect(replay.statusCode).toBe(400);
    const far = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(again.access), payload: { code: totp(secret, Date.now(), 3) } });
    expect(far.statusCode).toBe(400);
  });
});

describe('second-factor devices', () => {
  it('removes only your own device; has_mfa_enabled follows the devices', async () => {
    const owner = await newUser();
    const other = await newUser();
    const otherOrg = await buildUser(t.app, { org: orgB, email: `b${Math.random().toString(36).slice(2)}@example.test` });
    await enableEmailFactor(owner);
    const device = (await t.db.selectFrom('mfa_devices').select('uuid').where('user_id', '=', owner.id).executeTakeFirstOrThrow()).uuid;

    for (const intruder of [other, otherOrg]) {
      const { access } = await signIn(t.app, creds(intruder));
      const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/mfa/${device}`, headers: bearer(access) });
      expect(res.statusCode).toBe(404);
    }

    const limited = await signIn(t.app, creds(owner));
    // A pending sign-in cannot remove the factor it is asked for.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/mfa/${device}`, headers: bearer(limited.access) })).statusCode).toBe(403);
    const full = await verifyWithMail(owner, limited.access);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/mfa/${device}`, headers: bearer(full), payload: { password: owner.password } });
    expect(res.statusCode).toBe(204);
    expect((await me(full)).json()).toMatchObject({ has_mfa_enabled: false, mfa_devices: [] });
    expect(decode((await signIn(t.app, creds(owner))).access).access).toBe('full');
  });

  it('refuses a second e-mail factor and an unknown device type', async () => {
    const user = await newUser();
    await enableEmailFactor(user);
    const full = await verifyWithMail(user, (await signIn(t.app, creds(user))).access);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/mfa/register/hotp/', headers: bearer(full), payload: { device_type: 'email', password: user.password } });
    expect(res.statusCode).toBe(400);
    const bad = await t.app.inject({ method: 'POST', url: '/api/v1/mfa/register/hotp/', headers: bearer(full), payload: { device_type: 'sms', password: user.password } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('per-IP limits', () => {
  it('throttles many sign-ins from one address with 429 and Retry-After', async () => {
    const strict = await buildTestApp({ perIpLimitFloor: 0 });
    try {
      const org = await buildOrganization(strict.app, { name: 'strict-clinic' });
      let last;
      for (let i = 0; i < 21; i++) {
        last = await strict.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { email: `x${i}@example.test`, password: 'x', org: org.id } });
      }
      expect(last!.statusCode).toBe(429);
      expect(last!.headers['retry-after']).toBeDefined();
      expect(last!.json()).toHaveProperty('detail');
    } finally {
      await strict.close();
    }
  });
});

async function enableEmailFactor(user: BuiltUser) {
  const { access } = await signIn(t.app, creds(user));
  sink.messages.length = 0;
  await t.app.inject({ method: 'POST', url: '/api/v1/mfa/register/hotp/', headers: bearer(access), payload: { device_type: 'email', password: user.password } });
  const code = codeIn((await codeMail(user.email)).text)!;
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(access), payload: { code } });
  expect(res.statusCode).toBe(200);
  sink.messages.length = 0;
}

async function verifyWithMail(user: BuiltUser, limitedAccess: string): Promise<string> {
  const code = codeIn((await codeMail(user.email)).text)!;
  sink.messages.length = 0;
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/verify/', headers: bearer(limitedAccess), payload: { code } });
  expect(res.statusCode).toBe(200);
  return res.json().access as string;
}
