// On PostgreSQL too (vitest.config.ts): a single-use reset link under uses at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildMfaDevice, buildInvitation, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink';

const PUBLIC_URL = 'https://hb.example';
const NEW_PASSWORD = 'Brand-New#Pass9';

let sink: SmtpSink;
let t: TestApp;
let orgA: { id: number; name: string; org_name: string };
let orgB: { id: number; name: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url, PUBLIC_URL } });
  orgA = await buildOrganization(t.app, { name: 'recover-a', org_name: 'Recovery Clinic' });
  orgB = await buildOrganization(t.app, { name: 'recover-b' });
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

let seq = 0;
const address = (label: string) => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;
const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers, ...(remoteAddress ? { remoteAddress } : {}) });
const forgot = (payload: Record<string, unknown>, headers?: Record<string, string>) => post('/api/v1/reset_password/', payload, headers);
const reset = (payload: Record<string, unknown>, headers?: Record<string, string>) => post('/api/v1/reset_password/confirm/', payload, headers);
const retrieve = (payload: Record<string, unknown>, headers?: Record<string, string>) => post('/api/v1/users/coderetrieval/', payload, headers);
const login = (email: string, password: string, org: number | string) => post('/api/v1/login/', { email, password, org });

/** Mail for one recipient, in arrival order; waits until there are at least `count`. */
async function mailsFor(to: string, count: number, timeoutMs = 10_000): Promise<ReceivedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = sink.messages.filter((m) => m.envelope.to.includes(to.toLowerCase()));
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) for ${to}, got ${found.length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
/** Gives background sends a moment, then answers what arrived (to show that nothing did). */
async function settledMailsFor(to: string): Promise<ReceivedMail[]> {
  await new Promise((r) => setTimeout(r, 300));
  return sink.messages.filter((m) => m.envelope.to.includes(to.toLowerCase()));
}
const resetLink = (mail: ReceivedMail) => {
  const m = new RegExp(`${PUBLIC_URL}/([a-z0-9-]+)/password/reset/([A-Za-z0-9_-]+)/([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
  if (!m) throw new Error(`no reset link in: ${mail.text}`);
  return { org: m[1]!, uid: m[2]!, token: m[3]! };
};
const newUser = (opts: Partial<Parameters<typeof buildUser>[1]> = {}) => buildUser(t.app, { org: orgA, email: address('holder'), ...opts });

/** Asks for a reset and answers the link from the mail. */
async function requestLink(user: BuiltUser, nth = 1) {
  const res = await forgot({ org_id: user.org_id, email: user.email });
  expect(res.statusCode).toBe(200);
  return resetLink((await mailsFor(user.email, nth))[nth - 1]!);
}

describe('POST /api/v1/reset_password/', () => {
  it('answers the same 200 for a known address, an unknown one, another organisation and an unknown organisation', async () => {
    const user = await newUser();
    const inactive = await newUser({ is_active: false });
    const answers = await Promise.all([
      forgot({ org_id: orgA.id, email: user.email.toUpperCase() }),
      forgot({ org_id: orgA.id, email: 'nobody@example.test' }),
      forgot({ org_id: orgB.id, email: user.email }),
      forgot({ org_id: 'no-such-org', email: user.email }),
      forgot({ org_id: orgA.name, email: inactive.email }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ detail: 'If an account exists for this e-mail, you will receive an email with instructions.' });
      expect(res.headers['content-length']).toBe(answers[0]!.headers['content-length']);
    }
    const el = await forgot({ org_id: orgA.id, email: 'nobody@example.test' }, { 'accept-language': 'el' });
    expect(el.json()).toEqual({ detail: 'Αν υπάρχει λογαριασμός με αυτό το e-mail, θα λάβετε ένα e-mail με οδηγίες.' });

    const [mail] = await mailsFor(user.email, 1);
    expect(mail!.subject).toBe('Reset your Recovery Clinic password');
    const link = resetLink(mail!);
    expect(link.org).toBe('recover-a');
    expect(link.uid).toBe(Buffer.from(String(user.id)).toString('base64url'));
    expect(Buffer.from(link.token, 'base64url')).toHaveLength(32); // 256 bits
    const stored = await t.db.selectFrom('user_tokens').selectAll().where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ purpose: 'reset_password', used_at: null });
    expect(stored[0]!.token_hash).not.toContain(link.token);
    const ttl = new Date(stored[0]!.expires_at).getTime() - new Date(stored[0]!.created_at).getTime();
    expect(Math.abs(ttl - 60 * 60 * 1000)).toBeLessThan(5_000);
    expect(await settledMailsFor(inactive.email)).toEqual([]);
    expect(sink.messages.filter((m) => m.envelope.to.includes(user.email))).toHaveLength(1); // not for other organisations

    const audit = await t.db.selectFrom('audit_log').select(['outcome']).where('action', '=', 'password_reset_request').execute();
    expect(audit.filter((a) => a.outcome === 'success')).toHaveLength(1);
    expect(audit.filter((a) => a.outcome === 'failure').length).toBeGreaterThanOrEqual(4);
  });

  it('checks the e-mail field', async () => {
    expect((await forgot({ org_id: orgA.id, email: '' })).json()).toEqual({ email: ['Email address is required'] });
    expect((await forgot({ org_id: orgA.id, email: 'not-an-address' })).json()).toEqual({ email: ['Invalid email address'] });
    expect((await forgot({ org_id: orgA.id, email: 'x' }, { 'accept-language': 'el' })).json()).toEqual({ email: ['Μη έγκυρη διεύθυνση e-mail'] });
  });

  it('replaces earlier links: only the newest works', async () => {
    const user = await newUser();
    const first = await requestLink(user, 1);
    const second = await requestLink(user, 2);
    const stale = await reset({ uid: first.uid, token: first.token, password: NEW_PASSWORD });
    expect(stale.statusCode).toBe(400);
    expect(stale.json()).toEqual({ detail: 'This password reset link is invalid or has expired.' });
    expect((await reset({ uid: second.uid, token: second.token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });
});

describe('POST /api/v1/reset_password/confirm/', () => {
  it('sets the new password, ends every session, and the link works once', async () => {
    const user = await newUser({ first_name: 'Irini' });
    const before = await signIn(t.app, { email: user.email, password: user.password, org_id: orgA.id });
    const other = await signIn(t.app, { email: user.email, password: user.password, org_id: orgA.id });
    const link = await requestLink(user);

    const res = await reset({ uid: link.uid, token: link.token, password: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Your password has been reset. You can sign in with the new password.' });

    // Every earlier session has ended: refresh tokens and access tokens alike.
    for (const session of [before, other]) {
      const refreshed = await post('/api/v1/refresh/', { refresh: session.refresh });
      expect(refreshed.statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(session.access) })).statusCode).toBe(401);
    }
    const sessions = await t.db.selectFrom('sessions').select(['revoked_at', 'revoked_reason']).where('user_id', '=', user.id).execute();
    expect(sessions.every((s) => s.revoked_at !== null && s.revoked_reason === 'password_reset')).toBe(true);

    expect((await login(user.email, user.password, orgA.id)).statusCode).toBe(401);
    expect((await login(user.email, NEW_PASSWORD, orgA.id)).statusCode).toBe(200);
    const row = await t.db.selectFrom('users').select(['password_hash', 'password_changed_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_changed_at).not.toBeNull();

    const again = await reset({ uid: link.uid, token: link.token, password: 'Another#Pass77' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: 'This password reset link is invalid or has expired.' });
    expect((await login(user.email, NEW_PASSWORD, orgA.id)).statusCode).toBe(200);

    const mails = await mailsFor(user.email, 2);
    expect(mails[1]!.subject).toBe('Your Recovery Clinic password was changed');
    expect(mails[1]!.text).toContain('Hello Irini,');
    const audit = await t.db.selectFrom('audit_log').select('outcome').where('action', '=', 'password_reset').where('actor_user_id', '=', user.id).execute();
    expect(audit.map((a) => a.outcome).sort()).toEqual(['failure', 'success']);
  });

  it('refuses an expired link, a wrong token and another user’s uid', async () => {
    const user = await newUser();
    const stranger = await newUser();
    const link = await requestLink(user);
    const strangerUid = Buffer.from(String(stranger.id)).toString('base64url');
    for (const payload of [
      { uid: link.uid, token: `${link.token.slice(0, -2)}xx` },
      { uid: strangerUid, token: link.token },
      { uid: 'not-base64-id', token: link.token },
      { uid: Buffer.from('999999').toString('base64url'), token: link.token },
    ]) {
      const res = await reset({ ...payload, password: NEW_PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ detail: 'This password reset link is invalid or has expired.' });
    }
    const el = await reset({ uid: strangerUid, token: link.token, password: NEW_PASSWORD }, { 'accept-language': 'el' });
    expect(el.json()).toEqual({ detail: 'Αυτός ο σύνδεσμος επαναφοράς συνθηματικού δεν είναι έγκυρος ή έχει λήξει.' });

    await t.db.updateTable('user_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('user_id', '=', user.id).execute();
    const expired = await reset({ uid: link.uid, token: link.token, password: NEW_PASSWORD });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ detail: 'This password reset link is invalid or has expired.' });
    expect((await login(user.email, user.password, orgA.id)).statusCode).toBe(200);
  });

  it('refuses a password that does not meet the rule, and keeps the link usable', async () => {
    const user = await newUser();
    const link = await requestLink(user);
    const weak = await reset({ uid: link.uid, token: link.token, password: 'weakpass' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toEqual({ password: ['Passwords does not meet requirements'] });
    expect((await reset({ uid: link.uid, token: link.token, password: '' }, { 'accept-language': 'el' })).json()).toEqual({
      password: ['Το συνθηματικό δεν πληροί τις απαιτήσεις'],
    });
    expect((await reset({ uid: link.uid, token: link.token, password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('keeps the second factor: signing in after a reset still asks for it', async () => {
    const user = await newUser();
    await buildMfaDevice(t.app, { user });
    const link = await requestLink(user);
    expect((await reset({ uid: link.uid, token: link.token, password: NEW_PASSWORD })).statusCode).toBe(200);
    const devices = await t.db.selectFrom('mfa_devices').select('confirmed').where('user_id', '=', user.id).execute();
    expect(devices).toEqual([{ confirmed: true }]);

    const res = await login(user.email, NEW_PASSWORD, orgA.id);
    expect(res.statusCode).toBe(200);
    const claims = JSON.parse(Buffer.from(res.json().access.split('.')[1], 'base64url').toString());
    expect(claims.access).toBe('limited');
    expect(res.json().user.has_mfa_enabled).toBe(true);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(res.json().access) });
    expect(me.statusCode).toBe(403);
  });

  it('confirms an address that was not confirmed yet (the link proved it)', async () => {
    const user = await newUser();
    await t.db.updateTable('users').set({ email_confirmed_at: null }).where('id', '=', user.id).execute();
    expect((await login(user.email, user.password, orgA.id)).statusCode).toBe(403);
    const link = await requestLink(user);
    expect((await reset({ uid: link.uid, token: link.token, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await login(user.email, NEW_PASSWORD, orgA.id)).statusCode).toBe(200);
  });
});

describe('POST /api/v1/users/coderetrieval/', () => {
  const SUBMITTED = { detail: 'Your information has been submitted.' };

  it('answers the same whether or not an invitation matches', async () => {
    const inv = await buildInvitation(t.app, { org: orgA, first_name: 'Eva', last_name: 'Marou', dob: '1988-09-30' });
    const answers = await Promise.all([
      retrieve({ org_id: orgA.id, first_name: 'Eva', last_name: 'Marou', DOB: '09/30/1988' }),
      retrieve({ org_id: orgA.id, first_name: 'Eva', last_name: 'Marou', DOB: '09/29/1988' }),
      retrieve({ org_id: orgA.id, first_name: 'Nobody', last_name: 'Here', DOB: '01/01/1990' }),
      retrieve({ org_id: orgB.id, first_name: 'Eva', last_name: 'Marou', DOB: '09/30/1988' }),
      retrieve({ org_id: 'no-such-org', first_name: 'Eva', last_name: 'Marou', DOB: '09/30/1988' }),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(SUBMITTED);
    }
    expect((await retrieve({ org_id: orgA.id, first_name: 'X', last_name: 'Y', DOB: '01/01/1990' }, { 'accept-language': 'el' })).json()).toEqual({
      detail: 'Τα στοιχεία σας υποβλήθηκαν.',
    });
    // Exactly one mail: for the match.
    expect(await mailsFor(inv.email, 1)).toHaveLength(1);
    expect(await settledMailsFor(inv.email)).toHaveLength(1);
    const audit = await t.db.selectFrom('audit_log').select(['outcome', 'detail']).where('action', '=', 'code_retrieval').execute();
    expect(audit.filter((a) => a.outcome === 'success')).toEqual([{ outcome: 'success', detail: { invitation: inv.id } }]);
    expect(audit.filter((a) => a.outcome === 'failure').length).toBeGreaterThanOrEqual(4);
  });

  it('issues a new code for a match (names in any case): the new one works, the old one no longer', async () => {
    const inv = await buildInvitation(t.app, {
      org: orgA,
      first_name: 'Dimitra',
      last_name: 'Vlachou',
      dob: '1975-11-02',
      expires_at: new Date(Date.now() + 2 * 24 * 60 * 60 * 1000),
    });
    const res = await retrieve({ org_id: orgA.name, first_name: 'dimitra', last_name: 'VLACHOU', DOB: '11/02/1975' });
    expect(res.json()).toEqual(SUBMITTED);
    const [mail] = await mailsFor(inv.email, 1);
    expect(mail!.subject).toBe('Your Recovery Clinic access code');
    expect(mail!.text).toContain(`${PUBLIC_URL}/recover-a/access-code`);
    const code = /new access code is ([A-Z0-9]+)/.exec(mail!.text ?? '')?.[1];
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    expect(code).not.toBe(inv.code);

    const validate = (signup_code: string) => post('/api/v1/users/validate/', { org_id: orgA.id, signup_code });
    expect((await validate(inv.code)).json()).toEqual({ signup_code: ['Access code is invalid'] });
    const ok = await validate(code!);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ first_name: 'Dimitra', email: inv.email });

    const row = await t.db.selectFrom('invitations').select('expires_at').where('id', '=', inv.id).executeTakeFirstOrThrow();
    const in30Days = Date.now() + 30 * 24 * 60 * 60 * 1000;
    expect(Math.abs(new Date(row.expires_at).getTime() - in30Days)).toBeLessThan(60_000);

    // And the new code registers an account.
    const registered = await post('/api/v1/users/register/', {
      email: address('dimitra'),
      password: NEW_PASSWORD,
      signup_code: code,
      is_terms_privacy_policy_accepted: true,
      org_id: orgA.id,
    });
    expect(registered.statusCode).toBe(201);
  });

  it('does nothing for used or expired invitations', async () => {
    const used = await buildInvitation(t.app, { org: orgA, first_name: 'Used', last_name: 'Person', used_at: new Date() });
    const expired = await buildInvitation(t.app, { org: orgA, first_name: 'Gone', last_name: 'Person', expires_at: new Date(Date.now() - 1000) });
    for (const inv of [used, expired]) {
      const res = await retrieve({ org_id: orgA.id, first_name: inv.first_name, last_name: inv.last_name, DOB: '1990-12-10' });
      expect(res.json()).toEqual(SUBMITTED);
      expect(await settledMailsFor(inv.email)).toEqual([]);
      const row = await t.db.selectFrom('invitations').select('code_hash').where('id', '=', inv.id).executeTakeFirstOrThrow();
      expect(row.code_hash).toBe(inv.code_hash);
    }
  });

  it('checks the fields (en and el)', async () => {
    const res = await retrieve({ org_id: orgA.id, first_name: 'Anna Maria', last_name: '', DOB: '31/12/1990' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      first_name: ['Invalid name format'],
      last_name: ['Last name is required'],
      DOB: ['Invalid date format'],
    });
    const el = await retrieve({ org_id: orgA.id, first_name: '', last_name: 'K1', DOB: '' }, { 'accept-language': 'el' });
    expect(el.json()).toEqual({
      first_name: ['Το όνομα είναι υποχρεωτικό'],
      last_name: ['Μη έγκυρη μορφή ονόματος'],
      DOB: ['Η ημερομηνία γέννησης είναι υποχρεωτική'],
    });
  });
});

describe('per-IP limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ perIpLimitFloor: 0, config: { authRateLimit: 2 } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it.each([
    ['/api/v1/reset_password/', { org_id: 1, email: 'a@example.test' }],
    ['/api/v1/users/coderetrieval/', { org_id: 1, first_name: 'A', last_name: 'B', DOB: '01/01/1990' }],
    ['/api/v1/users/validate/', { org_id: 1, signup_code: 'ABCDEFGHJK' }],
    ['/api/v1/users/register/', { org_id: 1, signup_code: 'ABCDEFGHJK' }],
    ['/api/v1/users/confirm_email/', { uid: 'MQ', token: 'x' }],
    ['/api/v1/reset_password/confirm/', { uid: 'MQ', token: 'x', password: 'Valid#Pass123' }],
  ])('%s answers 429 beyond AUTH_RATE_LIMIT a minute from one address', async (url, payload) => {
    const from = (remoteAddress: string) => limited.app.inject({ method: 'POST', url, payload, remoteAddress });
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await from('10.9.8.7')).statusCode);
    expect(codes[2]).toBe(429);
    expect(codes.slice(0, 2).every((c) => c !== 429)).toBe(true);
    expect((await from('10.9.8.8')).statusCode).not.toBe(429);
  });
});
