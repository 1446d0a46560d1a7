// On PostgreSQL too (vitest.config.ts): caps under creates sent at once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { bearer, buildInvitation, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { secretFromProvisioningUrl, totp } from './totp';

/**
 * Security limits hold under concurrency: many parallel requests for one account, sign-in,
 * enrolment or address get exactly the allowed number of checks (the limit is counted and
 * checked in one statement, before the check it guards). Runs on PGlite and on PostgreSQL,
 * where the requests really race on several connections.
 */

let t: TestApp;
let org: { id: number; name: string };

beforeAll(async () => {
  t = await buildTestApp();
  org = await buildOrganization(t.app, { name: 'limits-clinic', org_name: 'Limits Clinic' });
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
const address = (label: string) => `${label}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.test`;
const post = (url: string, payload: Record<string, unknown>, token?: string) =>
  t.app.inject({ method: 'POST', url, payload, headers: token ? bearer(token) : {} });
const put = (url: string, payload: Record<string, unknown>, token: string) => t.app.inject({ method: 'PUT', url, payload, headers: bearer(token) });
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});
const creds = (u: BuiltUser) => ({ email: u.email, password: u.password, org_id: u.org_id });
/** Figures for the closing note: how many of the parallel attempts were let through. */
const report = (what: string, figures: Record<string, unknown>) => console.log(`[limits:${testDbKind()}] ${what}: ${JSON.stringify(figures)}`);

/** Mail kept in the outbox (no SMTP_URL), once the background sends are done. */
async function outbox(to: string, subject?: RegExp) {
  await t.app.backgroundMail.drain();
  const rows = await t.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', to).orderBy('id').execute();
  return rows.filter((r) => !subject || subject.test(r.subject));
}
const codeIn = (text: string) => /\b([0-9]{6})\b/.exec(text)?.[1];

async function auditCount(action: string, outcome: 'success' | 'failure' | 'denied', where: { actor?: number; subject?: string } = {}) {
  let q = t.db.selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).where('action', '=', action).where('outcome', '=', outcome);
  if (where.actor !== undefined) q = q.where('actor_user_id', '=', where.actor);
  if (where.subject !== undefined) q = q.where('subject', '=', where.subject);
  return (await q.executeTakeFirstOrThrow()).n;
}

describe('sign-in lockout', () => {
  it('200 parallel wrong passwords for one account: exactly 5 are checked, the rest get 429', async () => {
    const user = await buildUser(t.app, { org, email: address('lock') });
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => post('/api/v1/login/', { email: user.email, password: 'Wrong#Password1', org: org.id })),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    report('200 parallel wrong passwords', counts);
    expect(counts).toEqual({ 401: 5, 429: 195 });
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(850);
    // The right password is refused too while locked.
    expect((await post('/api/v1/login/', { email: user.email, password: user.password, org: org.id })).statusCode).toBe(429);
    expect(await auditCount('login', 'failure', { subject: `${org.id}:${user.email}` })).toBe(5);
  });

  it('a success clears the count: four failures, a sign-in, then four more are still checked', async () => {
    const user = await buildUser(t.app, { org, email: address('reset-count') });
    const wrong = () => post('/api/v1/login/', { email: user.email, password: 'Wrong#Password1', org: org.id });
    for (let i = 0; i < 4; i++) expect((await wrong()).statusCode).toBe(401);
    expect((await post('/api/v1/login/', { email: user.email, password: user.password, org: org.id })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await wrong()).statusCode).toBe(401);
  });
});

describe('second-factor codes at sign-in', () => {
  it('1,000 parallel codes for one pending sign-in, the right one at position 40: at most 5 are checked, and no token escapes', async () => {
    const user = await buildUser(t.app, { org, email: address('mfa') });
    const full = await signIn(t.app, creds(user));
    expect((await post('/api/v1/mfa/register/hotp/', { device_type: 'email', password: user.password }, full.access)).statusCode).toBe(201);
    const enrolCode = codeIn((await outbox(user.email, /verification code/)).at(-1)!.text_body)!;
    expect((await post('/api/v1/verify/', { code: enrolCode }, full.access)).statusCode).toBe(200);

    const limited = await signIn(t.app, creds(user));
    const right = codeIn((await outbox(user.email, /verification code/)).at(-1)!.text_body)!;
    const wrongCode = (i: number) => {
      const c = String(i).padStart(6, '0');
      return c === right ? '999999' : c;
    };
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => post('/api/v1/verify/', { code: i === 40 ? right : wrongCode(i) }, limited.access)),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    const sid = JSON.parse(Buffer.from(limited.access.split('.')[1]!, 'base64url').toString()).sid as string;
    const checked = await t.db
      .selectFrom('audit_log')
      .select(['outcome'])
      .where('action', '=', 'mfa_verify')
      .where('actor_user_id', '=', user.id)
      .where('outcome', 'in', ['success', 'failure'])
      .execute();
    const successes = checked.filter((c) => c.outcome === 'success').length;
    report('1000 parallel second-factor codes', { ...counts, checked: checked.length, successes });
    expect(checked.length).toBeLessThanOrEqual(5);
    // Either five wrong codes ended the sign-in, or the right code was among the first five tries.
    if (successes === 0) expect(checked.length).toBe(5);
    expect(counts[200] ?? 0).toBe(successes);
    if (successes === 0) {
      const session = await t.db.selectFrom('sessions').select(['revoked_at', 'revoked_reason']).where('id', '=', sid).executeTakeFirstOrThrow();
      expect(session.revoked_reason).toBe('mfa_attempts');
      expect((await post('/api/v1/verify/', { code: right }, limited.access)).statusCode).toBe(401);
    }
  });
});

describe('second-factor codes while enrolling', () => {
  it('31 wrong codes and then the right one: five are checked, then 429, and the right code does not enable the device', async () => {
    const user = await buildUser(t.app, { org, email: address('enrol') });
    const { access } = await signIn(t.app, creds(user));
    const reg = await post('/api/v1/mfa/register/totp/', { device_type: 'google', password: user.password }, access);
    expect(reg.statusCode).toBe(201);
    const secret = secretFromProvisioningUrl(reg.json().provisioning_url);
    const right = totp(secret);
    const valid = new Set([totp(secret, Date.now(), -1), right, totp(secret, Date.now(), 1)]);
    const wrong = Array.from({ length: 40 }, (_, i) => String(100000 + i * 7919)).filter((c) => !valid.has(c)).slice(0, 31);
    const statuses: number[] = [];
    for (const code of wrong) statuses.push((await post('/api/v1/verify/', { code }, access)).statusCode);
    const last = await post('/api/v1/verify/', { code: right }, access);
    report('31 wrong enrolment codes then the right one', { ...tally(statuses), right: last.statusCode });
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toBeDefined();
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(access) });
    expect(me.json()).toMatchObject({ has_mfa_enabled: false });
  });

  it('50 parallel wrong codes: exactly 5 are checked', async () => {
    const user = await buildUser(t.app, { org, email: address('enrol-par') });
    const { access } = await signIn(t.app, creds(user));
    expect((await post('/api/v1/mfa/register/hotp/', { device_type: 'email', password: user.password }, access)).statusCode).toBe(201);
    const right = codeIn((await outbox(user.email, /verification code/)).at(-1)!.text_body)!;
    const codes = Array.from({ length: 60 }, (_, i) => String(200000 + i)).filter((c) => c !== right).slice(0, 50);
    const answers = await Promise.all(codes.map((code) => post('/api/v1/verify/', { code }, access)));
    const counts = tally(answers.map((a) => a.statusCode));
    report('50 parallel wrong enrolment codes', counts);
    expect(counts).toEqual({ 400: 5, 429: 45 });
  });
});

describe('mail per address', () => {
  it('10 parallel password-reset requests for one address send 3 mails, with the same answer every time', async () => {
    const user = await buildUser(t.app, { org, email: address('reset') });
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/api/v1/reset_password/', { org_id: org.id, email: user.email })));
    expect([...new Set(answers.map((a) => `${a.statusCode} ${a.body}`))]).toHaveLength(1);
    expect(answers[0]!.statusCode).toBe(200);
    const mails = await outbox(user.email, /Reset your/);
    report('10 parallel reset requests', { answered200: answers.length, mails: mails.length });
    expect(mails).toHaveLength(3);
    // An unknown address is counted the same way (nothing tells the two apart).
    const unknown = address('nobody');
    const forUnknown = await Promise.all(Array.from({ length: 5 }, () => post('/api/v1/reset_password/', { org_id: org.id, email: unknown })));
    expect(new Set(forUnknown.map((a) => `${a.statusCode} ${a.body}`))).toEqual(new Set([`${answers[0]!.statusCode} ${answers[0]!.body}`]));
  });

  it('10 parallel code-retrieval requests for one person send 3 mails', async () => {
    const invitation = await buildInvitation(t.app, { org, first_name: 'Zoe', last_name: 'Parallel', dob: '1980-03-04', email: address('retrieve') });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post('/api/v1/users/coderetrieval/', { org_id: org.id, first_name: 'zoe', last_name: 'PARALLEL', DOB: '03/04/1980' })),
    );
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([200]));
    const mails = await outbox(invitation.email, /access code/);
    report('10 parallel code retrievals', { mails: mails.length });
    expect(mails).toHaveLength(3);
  });
});

describe('re-authentication', () => {
  it('20 parallel wrong current passwords: 5 are checked, the rest get 429, and the password stays', async () => {
    const user = await buildUser(t.app, { org, email: address('reauth') });
    const { access } = await signIn(t.app, creds(user));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => put('/api/v1/me/password/', { current_password: 'Wrong#Password1', password: 'Brand-New#Pass9' }, access)),
    );
    const counts = tally(answers.map((a) => a.statusCode));
    report('20 parallel wrong current passwords', counts);
    expect(counts).toEqual({ 400: 5, 429: 15 });
    // Locked for changes that need the password, whatever the field (adding a second factor too).
    expect((await post('/api/v1/mfa/register/hotp/', { device_type: 'email', password: user.password }, access)).statusCode).toBe(429);
    expect((await post('/api/v1/login/', { email: user.email, password: user.password, org: org.id })).statusCode).toBe(200);
  });
});
