// On PostgreSQL too (vitest.config.ts): linked sign-ins sent at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyRecordsResult, LinkedAccount, SwitchToken } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildMfaDevice, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { startSmtpSink, type SmtpSink } from './smtp-sink';
import { systemContext } from '../src/context';
import { encodeUid } from '../src/lib/crypto';
import { orgScope } from '../src/db/scope';
import { endLinksOf } from '../src/modules/connection-hub/link-ends';
import { UserTokensRepository } from '../src/modules/recovery/user-tokens.repository';

/**
 * The connection hub: linking an account of another organisation by signing in to it (password,
 * second factor), the refusals (same organisation, wrong credentials alike for an unknown
 * account, wrong or missing code, twice), switching with a single-use token (replayed, expired,
 * parallel), the second factor once per device, unlinking for both sides, copying records
 * through FHIR (private ones never leave, a second copy adds nothing), and another account's
 * links out of reach.
 */

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const codeIn = (text: string | undefined) => /\b([0-9]{6})\b/.exec(text ?? '')?.[1];

let sink: SmtpSink;
let t: TestApp;
let orgA: { id: number; name: string };
let orgB: { id: number; name: string };
let orgC: { id: number; name: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await buildTestApp({ env: { SMTP_URL: sink.url }, perIpLimitFloor: 1000 });
  orgA = await buildOrganization(t.app, { name: 'hub-clinic-a', org_name: 'Clinic A' });
  orgB = await buildOrganization(t.app, { name: 'hub-clinic-b', org_name: 'Clinic B', withAssets: true });
  orgC = await buildOrganization(t.app, { name: 'hub-clinic-c', org_name: 'Clinic C' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

let n = 0;
const person = (org: { id: number }, opts: Partial<Parameters<typeof buildUser>[1]> = {}) =>
  buildUser(t.app, { org, email: `hub${++n}-${Math.random().toString(36).slice(2, 8)}@example.test`, dob: '1980-01-01', first_name: 'Hana', last_name: `Person${n}`, ...opts });
const tokenOf = async (u: BuiltUser) => (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload ? { payload } : {}) });
const linkBody = (other: BuiltUser, org: { name: string }, extra: object = {}) => ({ client_id: org.name, email: other.email, password: other.password, ...extra });
const deviceCookie = (res: { cookies: Array<{ name: string; value: string }> }) => res.cookies.find((c) => c.name === 'hb_device')?.value;
const countLinks = async () => Number((await t.db.selectFrom('account_links').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const auditOf = (action: string) => t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

/** A linked pair: `here` (org A) linked to `there` (org B); answers the link and the device cookie. */
async function linkedPair(opts: { thereMfa?: boolean } = {}) {
  const here = await person(orgA);
  const there = await person(orgB);
  const token = await tokenOf(here);
  const res = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB));
  expect(res.statusCode, res.body).toBe(201);
  if (opts.thereMfa) await buildMfaDevice(t.app, { user: there, type: 'email' });
  return { here, there, token, link: res.json<LinkedAccount>(), device: deviceCookie(res)! };
}

const switchToken = async (token: string, linkId: number) => {
  const res = await call(token, 'POST', `/api/v1/connection-hub/links/${linkId}/switch/`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SwitchToken>();
};
const linked = (token: string, cookie?: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/linked/', payload: { token }, headers: cookie ? { cookie: `hb_device=${cookie}` } : {} });

describe('linking an account', () => {
  it('links by signing in to the other account; both sides list it (organisation, name, e-mail)', async () => {
    const here = await person(orgA, { first_name: 'Maria', last_name: 'Here' });
    const there = await person(orgB, { first_name: 'Maria', last_name: 'There' });
    const token = await tokenOf(here);
    expect((await call(token, 'GET', '/api/v1/connection-hub/links/')).json()).toEqual([]);

    const res = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { email: there.email.toUpperCase() }));
    expect(res.statusCode, res.body).toBe(201);
    const link = res.json<LinkedAccount>();
    expect(link).toMatchObject({ organization: { client_id: 'hub-clinic-b', name: 'Clinic B' }, name: 'Maria There', email: there.email });
    expect(link.organization.logo).toMatch(/^\/api\/v1\/organizations\/hub-clinic-b\/logo/);
    // The browser is remembered (HttpOnly, Secure, SameSite=Strict), only for the two calls that read it.
    const cookies = res.cookies.filter((c) => c.name === 'hb_device');
    expect(cookies.map((c) => c.path).sort()).toEqual(['/api/v1/auth/linked/', '/api/v1/connection-hub/links/']);
    expect(cookies[0]).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict' });
    // No session was opened for the other account.
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', there.id).execute()).toEqual([]);

    expect((await call(token, 'GET', '/api/v1/connection-hub/links/')).json()).toEqual([link]);
    const fromThere = (await call(await tokenOf(there), 'GET', '/api/v1/connection-hub/links/')).json<LinkedAccount[]>();
    expect(fromThere).toEqual([expect.objectContaining({ id: link.id, organization: expect.objectContaining({ client_id: 'hub-clinic-a', name: 'Clinic A' }), name: 'Maria Here', email: here.email })]);

    // Audited in both organisations; never the password.
    const events = (await auditOf('account_link')).filter((e) => e.outcome === 'success' && [here.id, there.id].includes(e.actor_user_id!));
    expect(events.map((e) => e.org_id).sort()).toEqual([orgA.id, orgB.id].sort());
    expect(JSON.stringify(events)).not.toContain(there.password);
  });

  it('refuses an account of the same organisation (400), and a second link either way (409); nothing changes', async () => {
    const { here, there, token } = await linkedPair();
    const neighbour = await person(orgA);
    const before = await countLinks();
    const same = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(neighbour, orgA), { 'accept-language': 'el' });
    expect(same.statusCode).toBe(400);
    expect(same.json().detail).toMatch(/ίδιο οργανισμό/);
    expect((await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(here, orgA))).statusCode).toBe(400);

    const again = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB));
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('That account is already linked with this one.');
    const reverse = await call(await tokenOf(there), 'POST', '/api/v1/connection-hub/links/', linkBody(here, orgA));
    expect(reverse.statusCode).toBe(409);
    expect(await countLinks()).toBe(before);
    expect((await auditOf('account_link')).some((e) => e.outcome === 'denied' && (e.detail as { reason?: string }).reason === 'same_organization' && e.actor_user_id === here.id)).toBe(true);
  });

  it('answers a wrong password, an unknown account and an unknown organisation alike (the sign-in’s 401); nothing stored, audited', async () => {
    const here = await person(orgA);
    const there = await person(orgB);
    const token = await tokenOf(here);
    const before = await countLinks();
    const answers = await Promise.all([
      call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { password: 'Wrong#Password1' })),
      call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { email: 'nobody-here@example.test' })),
      call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, { name: 'no-such-clinic' })),
      call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgC)),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Incorrect authentication credentials.' });
    }
    expect(await countLinks()).toBe(before);
    const failures = (await auditOf('account_link')).filter((e) => e.outcome === 'failure' && e.actor_user_id === here.id);
    expect(failures.length).toBeGreaterThanOrEqual(4);
    // The other organisation's trail tells of the attempt on its account too.
    expect((await auditOf('account_link')).some((e) => e.org_id === orgB.id && e.subject === `${orgB.id}:${there.email}` && e.outcome === 'failure')).toBe(true);
    // Bad input: a clear 400 under its field.
    const bad = await call(token, 'POST', '/api/v1/connection-hub/links/', { client_id: '', email: 'x', password: '' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(expect.arrayContaining(['client_id', 'email', 'password']));
  });

  it('is throttled as sign-in is: five failures lock that account, also for its own sign-in', async () => {
    const here = await person(orgA);
    const there = await person(orgB);
    const token = await tokenOf(here);
    for (let i = 0; i < 5; i++) expect((await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { password: `Wrong#Password${i}` }))).statusCode).toBe(401);
    const locked = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB));
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { email: there.email, password: there.password, org: orgB.id } });
    expect(login.statusCode).toBe(429);
  });

  it('asks for the other account’s second factor: an e-mailed code (bound to this linking), a wrong one refused, the right one links', async () => {
    const here = await person(orgA);
    const there = await person(orgB);
    await buildMfaDevice(t.app, { user: there, type: 'email' });
    const token = await tokenOf(here);
    const before = await countLinks();

    const asked = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB));
    expect(asked.statusCode).toBe(400);
    expect(asked.json()).toEqual({ code: ['That account has two-step verification: enter the 6-digit code we have just e-mailed to it.'] });
    const code = codeIn((await sink.waitForMail(there.email, { subject: /verification code/ })).text);
    expect(code).toMatch(/^[0-9]{6}$/);

    const wrong = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { code: code === '000000' ? '111111' : '000000' }));
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json())).toEqual(['code']);
    // The right code with a wrong password is still the sign-in's 401.
    expect((await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { code, password: 'Wrong#Password1' }))).statusCode).toBe(401);
    expect(await countLinks()).toBe(before);

    const ok = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { code }));
    expect(ok.statusCode, ok.body).toBe(201);
    // A code works once.
    expect(await t.db.selectFrom('mfa_codes').select('id').where('user_id', '=', there.id).where('used_at', 'is', null).execute()).toEqual([]);
    expect((await auditOf('account_link')).some((e) => e.org_id === orgB.id && (e.detail as { reason?: string }).reason === 'second_factor_wrong')).toBe(true);
  });

  it('counts second-factor codes: five wrong ones, then 429', async () => {
    const here = await person(orgA);
    const there = await person(orgB);
    await buildMfaDevice(t.app, { user: there, type: 'email' });
    const token = await tokenOf(here);
    for (let i = 0; i < 5; i++) expect((await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { code: `00000${i}` }))).statusCode).toBe(400);
    expect((await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgB, { code: '000009' }))).statusCode).toBe(429);
  });
});

describe('switching', () => {
  it('opens a session of the other account without its password; the session it came from ends', async () => {
    const { here, there, token, link } = await linkedPair();
    const st = await switchToken(token, link.id);
    expect(st).toMatchObject({ client_id: 'hub-clinic-b', expires_in: 60 });
    expect(st.token.length).toBeGreaterThanOrEqual(43);
    // Stored hashed.
    expect(await t.db.selectFrom('account_link_tokens').select('id').where('token_hash', '=', st.token).execute()).toEqual([]);

    const res = await linked(st.token);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ access: string; refresh: string; user: { user_id: number } }>();
    expect(decode(answer.access)).toMatchObject({ user_id: there.id, org: orgB.id, access: 'full' });
    expect(answer.user.user_id).toBe(there.id);
    expect(res.cookies.filter((c) => c.name === 'hb_refresh' && c.value)).toHaveLength(2);
    expect((await call(answer.access, 'GET', '/api/v1/me/')).json()).toMatchObject({ user_id: there.id, email: there.email });
    expect((await call(token, 'GET', '/api/v1/me/')).statusCode).toBe(401);

    // And back: the other account switches to this one.
    const back = await switchToken(answer.access, link.id);
    expect(back.client_id).toBe('hub-clinic-a');
    const home = await linked(back.token);
    expect(decode(home.json<{ access: string }>().access)).toMatchObject({ user_id: here.id, org: orgA.id, access: 'full' });
    const events = (await auditOf('account_switch')).filter((e) => e.outcome === 'success' && [here.id, there.id].includes(e.actor_user_id!));
    expect(events.map((e) => e.org_id).sort()).toEqual([orgA.id, orgA.id, orgB.id, orgB.id].sort());
  });

  it('refuses a replayed, expired or unknown token (401, audited); ten at once make one session', async () => {
    const { there, token, link } = await linkedPair();
    const st = await switchToken(token, link.id);
    const sessionsBefore = (await t.db.selectFrom('sessions').select('id').where('user_id', '=', there.id).execute()).length;
    const answers = await Promise.all(Array.from({ length: 10 }, () => linked(st.token)));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode).toBe(401);
      expect(r.json().detail).toBe('This switch link has expired or was already used. Switch again from your linked accounts.');
    }
    expect((await t.db.selectFrom('sessions').select('id').where('user_id', '=', there.id).execute()).length).toBe(sessionsBefore + 1);
    expect((await auditOf('account_switch')).filter((e) => (e.detail as { reason?: string }).reason === 'replayed' && e.org_id === orgB.id).length).toBe(9);

  });

  it('refuses an expired token and an unknown one', async () => {
    const { token, link } = await linkedPair();
    const st = await switchToken(token, link.id);
    await t.db.updateTable('account_link_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('link_id', '=', link.id).execute();
    expect((await linked(st.token)).statusCode).toBe(401);
    expect((await auditOf('account_switch')).some((e) => (e.detail as { reason?: string }).reason === 'expired')).toBe(true);
    expect((await linked('not-a-token-at-all-0123456789')).statusCode).toBe(401);
    expect((await auditOf('account_switch')).some((e) => (e.detail as { reason?: string }).reason === 'unknown' && e.org_id === null)).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/linked/', payload: {} })).statusCode).toBe(400);
  });

  it('asks the other account’s second factor once per device: limited on a new browser, full on the one that linked or passed it', async () => {
    const { there, link, here, device } = await linkedPair({ thereMfa: true });
    // The browser that linked (it passed that account's sign-in there): full at once.
    let token = await tokenOf(here);
    const onLinkingDevice = await linked((await switchToken(token, link.id)).token, device);
    expect(decode(onLinkingDevice.json<{ access: string }>().access)).toMatchObject({ user_id: there.id, access: 'full' });

    // Another browser: limited, as sign-in answers; the e-mailed code completes it at /verify/.
    token = await tokenOf(here);
    sink.messages.splice(0);
    const elsewhere = await linked((await switchToken(token, link.id)).token);
    expect(elsewhere.statusCode).toBe(200);
    const limited = elsewhere.json<{ access: string; user: Record<string, unknown> }>();
    expect(decode(limited.access)).toMatchObject({ user_id: there.id, access: 'limited' });
    expect(limited.user).not.toHaveProperty('email');
    expect(elsewhere.cookies.filter((c) => c.name === 'hb_refresh')).toEqual([]);
    const newDevice = deviceCookie(elsewhere)!;
    expect(newDevice).toBeTruthy();
    const code = codeIn((await sink.waitForMail(there.email, { subject: /verification code/ })).text)!;
    const verified = await call(limited.access, 'POST', '/api/v1/verify/', { code });
    expect(verified.statusCode, verified.body).toBe(200);

    // That browser passed it now: the next switch there is full.
    token = await tokenOf(here);
    const again = await linked((await switchToken(token, link.id)).token, newDevice);
    expect(decode(again.json<{ access: string }>().access)).toMatchObject({ access: 'full' });
    // A device cookie of another account's browser proves nothing for this one.
    const stranger = await linkedPair({ thereMfa: true });
    const cross = await linked((await switchToken(stranger.token, stranger.link.id)).token, device);
    expect(decode(cross.json<{ access: string }>().access)).toMatchObject({ user_id: stranger.there.id, access: 'limited' });
  });
});

describe('another account and unlinking', () => {
  it('keeps a link out of reach of any other account (404, audited), here or in the other organisation', async () => {
    const { link } = await linkedPair();
    const outsider = await tokenOf(await person(orgA));
    const outsiderB = await tokenOf(await person(orgB));
    for (const token of [outsider, outsiderB]) {
      expect((await call(token, 'GET', '/api/v1/connection-hub/links/')).json()).toEqual([]);
      expect((await call(token, 'POST', `/api/v1/connection-hub/links/${link.id}/switch/`)).statusCode).toBe(404);
      expect((await call(token, 'POST', `/api/v1/connection-hub/links/${link.id}/copy/`, { categories: ['condition'] })).statusCode).toBe(404);
      expect((await call(token, 'DELETE', `/api/v1/connection-hub/links/${link.id}/`)).statusCode).toBe(404);
    }
    expect(await t.db.selectFrom('account_links').select('id').where('id', '=', link.id).execute()).toHaveLength(1);
    expect((await auditOf('account_unlink')).some((e) => e.outcome === 'denied')).toBe(true);
  });

  it('unlinks at once for both sides; a pending switch token stops working', async () => {
    const { there, token, link } = await linkedPair();
    const st = await switchToken(token, link.id);
    const thereToken = await tokenOf(there);
    expect((await call(thereToken, 'GET', '/api/v1/connection-hub/links/')).json()).toHaveLength(1);
    expect((await call(token, 'DELETE', `/api/v1/connection-hub/links/${link.id}/`)).statusCode).toBe(204);
    expect((await call(token, 'GET', '/api/v1/connection-hub/links/')).json()).toEqual([]);
    expect((await call(thereToken, 'GET', '/api/v1/connection-hub/links/')).json()).toEqual([]);
    expect((await linked(st.token)).statusCode).toBe(401);
    expect((await call(thereToken, 'POST', `/api/v1/connection-hub/links/${link.id}/switch/`)).statusCode).toBe(404);
    expect((await call(token, 'DELETE', `/api/v1/connection-hub/links/${link.id}/`)).statusCode).toBe(404);
    const events = (await auditOf('account_unlink')).filter((e) => e.outcome === 'success' && (e.detail as { link?: number }).link === link.id);
    expect(events.map((e) => e.org_id).sort()).toEqual([orgA.id, orgB.id].sort());
  });

  it('answers 403 while the organisation has the connection hub off, and 401 without a session', async () => {
    const { token, link } = await linkedPair();
    const feature = await t.db.selectFrom('features').select('id').where('key', '=', 'connection-hub').executeTakeFirstOrThrow();
    const admin = await tokenOf(await person(orgA, { roles: ['org_admin'] }));
    const set = (status: string) => call(admin, 'PUT', `/api/v1/features/${feature.id}/`, { organization_id: orgA.id, feature_status: status });
    expect((await set('inactive')).statusCode).toBe(200);
    const off = await call(token, 'GET', '/api/v1/connection-hub/links/');
    expect(off.statusCode).toBe(403);
    expect((await call(token, 'POST', `/api/v1/connection-hub/links/${link.id}/switch/`)).statusCode).toBe(403);
    expect((await set('active')).statusCode).toBe(200);
    expect((await call(token, 'GET', '/api/v1/connection-hub/links/')).statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', '/api/v1/connection-hub/links/'],
      ['POST', '/api/v1/connection-hub/links/'],
      ['POST', `/api/v1/connection-hub/links/${link.id}/switch/`],
      ['DELETE', `/api/v1/connection-hub/links/${link.id}/`],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode).toBe(401);
    }
  });
});

describe('copying records', () => {
  it('copies chosen categories through FHIR, never a private record; a second copy adds nothing; the other way round knows them', async () => {
    const { here, there, token, link } = await linkedPair();
    const add = async (tk: string, category: string, body: object) => {
      const res = await call(tk, 'POST', `/api/v1/hr/${category}/`, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: number }>();
    };
    await add(token, 'condition', { name: 'Asthma' });
    await add(token, 'condition', { name: 'Secret condition', private: true });
    const allergy = await add(token, 'allergy', { code: 'Penicillin' });
    await add(token, 'medication', { code: 'Salbutamol' });

    const copy = (tk: string, body: object) => call(tk, 'POST', `/api/v1/connection-hub/links/${link.id}/copy/`, body);
    const first = await copy(token, { categories: ['condition'] });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json<CopyRecordsResult>()).toEqual({ direction: 'from-here', copied: 1, duplicates: 0, skipped: 0 });

    const thereToken = await tokenOf(there);
    const conditions = (await call(thereToken, 'GET', '/api/v1/hr/condition/')).json<{ results: Array<{ name: string }> }>();
    expect(conditions.results.map((r) => r.name)).toEqual(['Asthma']);

    // Again: known by its source, nothing added.
    expect((await copy(token, { categories: ['condition'] })).json<CopyRecordsResult>()).toMatchObject({ copied: 0, duplicates: 1 });
    // One record by id.
    expect((await copy(token, { records: [allergy.id] })).json<CopyRecordsResult>()).toMatchObject({ copied: 1 });
    expect((await call(thereToken, 'GET', '/api/v1/hr/medication/')).json<{ results: unknown[] }>().results).toEqual([]);

    // The other way round (asked from here): the other account's records come here; ours are known.
    await add(thereToken, 'condition', { name: 'Hay fever' });
    const back = await copy(token, { categories: ['condition'], direction: 'to-here' });
    expect(back.json<CopyRecordsResult>()).toEqual({ direction: 'to-here', copied: 1, duplicates: 1, skipped: 0 });
    const mine = (await call(token, 'GET', '/api/v1/hr/condition/')).json<{ results: Array<{ name: string }> }>();
    expect(mine.results.map((r) => r.name).sort()).toEqual(['Asthma', 'Hay fever', 'Secret condition']);

    // The private record never reached the other organisation.
    const theirs = await t.db.selectFrom('health_records').select(['data']).where('org_id', '=', orgB.id).execute();
    expect(JSON.stringify(theirs)).not.toContain('Secret condition');
    const copies = (await auditOf('account_link_copy')).filter((e) => (e.detail as { link?: number }).link === link.id);
    expect(new Set(copies.map((e) => e.org_id))).toEqual(new Set([orgA.id, orgB.id]));
    expect((await auditOf('fhir_import')).some((e) => e.org_id === orgB.id && e.actor_user_id === there.id)).toBe(true);
    void here;
  });

  it('refuses an unknown category, nothing chosen, or an unknown direction (400)', async () => {
    const { token, link } = await linkedPair();
    for (const body of [{ categories: ['nonsense'] }, {}, { categories: [] }, { categories: ['condition'], direction: 'sideways' }]) {
      expect((await call(token, 'POST', `/api/v1/connection-hub/links/${link.id}/copy/`, body)).statusCode).toBe(400);
    }
  });
});

describe('a link lives only as long as the credentials that made it', () => {
  const ENDED = /no longer linked|δεν είναι πλέον συνδεδεμένος/;

  /** A linked pair with a switch token pending from `here`; `there` reads Greek. */
  async function pairWithPendingSwitch() {
    const pair = await linkedPair();
    await t.db.updateTable('users').set({ settings: JSON.stringify({ language: 'el' }) }).where('id', '=', pair.there.id).execute();
    const thereToken = await tokenOf(pair.there);
    expect((await call(thereToken, 'GET', '/api/v1/connection-hub/links/')).json()).toHaveLength(1);
    return { ...pair, thereToken, pending: await switchToken(pair.token, pair.link.id) };
  }

  /** The link is gone from both lists, its pending switch token is dead, both accounts were told in their language, both trails say why. */
  async function expectEnded(p: Awaited<ReturnType<typeof pairWithPendingSwitch>>, reason: string, because: { en: RegExp; el: RegExp }, tokens: { here?: string; there?: string } = {}) {
    const hereToken = tokens.here ?? p.token;
    const thereToken = tokens.there ?? p.thereToken;
    expect((await call(hereToken, 'GET', '/api/v1/connection-hub/links/')).json()).toEqual([]);
    expect((await call(thereToken, 'GET', '/api/v1/connection-hub/links/')).json()).toEqual([]);
    expect(await t.db.selectFrom('account_links').select('id').where('id', '=', p.link.id).execute()).toEqual([]);
    expect((await linked(p.pending.token)).statusCode).toBe(401);

    const toHere = await sink.waitForMail(p.here.email, { subject: ENDED });
    const toThere = await sink.waitForMail(p.there.email, { subject: ENDED });
    expect(toHere.subject).toBe('Your Clinic A account is no longer linked with Clinic B');
    expect(toHere.text).toContain(`Your account at Clinic A (${p.here.email}) and your account at Clinic B (${p.there.email}) are no longer linked, because`);
    expect(toHere.text).toMatch(because.en);
    expect(toHere.text).toContain('The Clinic A team');
    expect(toThere.subject).toBe('Ο λογαριασμός σας στο Clinic B δεν είναι πλέον συνδεδεμένος με το Clinic A');
    expect(toThere.text).toMatch(because.el);
    expect(toThere.text).toContain('Η ομάδα του Clinic B');
    for (const mail of [toHere, toThere]) expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain('{{');

    const events = (await auditOf('account_unlink')).filter((e) => (e.detail as { link?: number }).link === p.link.id);
    expect(events.map((e) => [e.org_id, (e.detail as { reason?: string }).reason]).sort()).toEqual(
      [
        [orgA.id, reason],
        [orgB.id, reason],
      ].sort(),
    );
  }

  it('ends when the other account’s password is changed', async () => {
    const p = await pairWithPendingSwitch();
    const res = await call(p.thereToken, 'PUT', '/api/v1/me/password/', { current_password: p.there.password, password: 'Changed#Pass1' });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(p, 'password_changed', { en: /because the password of your account at Clinic B was changed\./, el: /επειδή άλλαξε ο κωδικός πρόσβασης του λογαριασμού σας στο Clinic B\./ });
  });

  it('ends when this account’s password is reset (its sessions end too)', async () => {
    const p = await pairWithPendingSwitch();
    const token = await new UserTokensRepository(t.db).issue(orgScope(orgA.id), p.here.id, 'reset_password', 3600);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/reset_password/confirm/', payload: { uid: encodeUid(p.here.id), token, password: 'Reset#Pass12' } });
    expect(res.statusCode, res.body).toBe(200);
    const here = await signIn(t.app, { email: p.here.email, password: 'Reset#Pass12', org_id: orgA.id });
    await expectEnded(p, 'password_reset', { en: /because the password of your account at Clinic A was reset\./, el: /επειδή έγινε επαναφορά του κωδικού πρόσβασης του λογαριασμού σας στο Clinic A\./ }, { here: here.access });
  });

  it('ends when a second factor is removed from an account', async () => {
    const p = await pairWithPendingSwitch();
    // The session was opened before the factor was added: a full one, as after passing it.
    const device = await buildMfaDevice(t.app, { user: p.there, type: 'google' });
    const res = await call(p.thereToken, 'DELETE', `/api/v1/mfa/${device}`, { password: p.there.password });
    expect(res.statusCode, res.body).toBe(204);
    await expectEnded(p, 'mfa_removed', { en: /because a sign-in step was removed from your account at Clinic B\./, el: /επειδή αφαιρέθηκε ένα βήμα σύνδεσης από τον λογαριασμό σας στο Clinic B\./ });
  });

  it('ends when an account is deactivated', async () => {
    const p = await pairWithPendingSwitch();
    // No route deactivates an account yet: what deactivation must do, it does through endLinksOf.
    await t.db.updateTable('users').set({ is_active: false }).where('id', '=', p.there.id).execute();
    const ended = await endLinksOf({ db: t.db, audit: t.app.audit, mail: t.app.backgroundMail }, systemContext(t.app.log), { userId: p.there.id, orgId: orgB.id }, 'deactivated');
    expect(ended).toBe(1);
    await t.db.updateTable('users').set({ is_active: true }).where('id', '=', p.there.id).execute(); // to read its (empty) list
    await expectEnded(p, 'deactivated', { en: /because your account at Clinic B was deactivated\./, el: /επειδή απενεργοποιήθηκε ο λογαριασμός σας στο Clinic B\./ });
  });

  it('ends only the links of the account whose credentials changed', async () => {
    const p = await pairWithPendingSwitch();
    const third = await person(orgC);
    expect((await call(p.token, 'POST', '/api/v1/connection-hub/links/', linkBody(third, orgC))).statusCode).toBe(201);
    const bystander = await linkedPair();
    expect((await call(p.thereToken, 'PUT', '/api/v1/me/password/', { current_password: p.there.password, password: 'Changed#Pass1' })).statusCode).toBe(200);
    const left = (await call(p.token, 'GET', '/api/v1/connection-hub/links/')).json<LinkedAccount[]>();
    expect(left.map((l) => l.email)).toEqual([third.email]);
    expect((await call(bystander.token, 'GET', '/api/v1/connection-hub/links/')).json()).toHaveLength(1);
  });
});

describe('a deactivated organisation', () => {
  it('cannot be switched into: the switch is refused with its message and the current session stays; reactivated, it can', async () => {
    const superadmin = await person(orgA, { roles: ['org_admin'], is_superadmin: true });
    const superToken = await tokenOf(superadmin);
    const here = await person(orgA);
    const there = await person(orgC);
    const token = await tokenOf(here);
    const res = await call(token, 'POST', '/api/v1/connection-hub/links/', linkBody(there, orgC));
    expect(res.statusCode, res.body).toBe(201);
    const link = res.json<LinkedAccount>();
    const earlier = await switchToken(token, link.id);
    const setActive = async (active: boolean) =>
      expect((await call(superToken, 'POST', `/api/v1/admin/organizations/${orgC.id}/${active ? 'reactivate' : 'deactivate'}/`)).statusCode).toBe(200);

    await setActive(false);
    try {
      const refused = await call(token, 'POST', `/api/v1/connection-hub/links/${link.id}/switch/`, undefined, { 'accept-language': 'en' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'organization_deactivated', detail: expect.stringContaining('Clinic C has been deactivated') });
      // A token given before the deactivation opens nothing either, and ends nothing.
      const late = await linked(earlier.token);
      expect(late.statusCode).toBe(403);
      expect(late.json()).toMatchObject({ code: 'organization_deactivated' });
      expect((await call(token, 'GET', '/api/v1/me/')).statusCode).toBe(200);
    } finally {
      await setActive(true);
    }
    const again = await linked((await switchToken(token, link.id)).token);
    expect(again.statusCode, again.body).toBe(200);
  });
});
