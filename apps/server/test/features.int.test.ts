// On PostgreSQL too (vitest.config.ts): cached statuses across two processes on one database.
import { Redis } from 'ioredis';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureEntry, FeatureSetting } from '@healthbook/shared';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * Features per organisation: the list members get, the administrators' switches, a disabled
 * feature's API refused, saved operations, and the cached statuses seen by every process.
 */

/** A route of a feature, as a later feature module registers it (config.feature). */
const laterRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/v1/test-file-library/', { config: { feature: 'file-library' } }, async () => ({ ok: true }));
  app.get('/api/v1/test-help/', { config: { feature: 'help' } }, async () => ({ ok: true }));
};

let t: TestApp;
let hb: { id: number };
let nw: { id: number };
let other: { id: number };
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true, signedInRoutes: [laterRoutes] });
  const orgs = await t.db.selectFrom('organizations').select(['id', 'name']).execute();
  hb = orgs.find((o) => o.name === 'healthbook')!;
  nw = orgs.find((o) => o.name === 'northwind')!;
  other = await buildOrganization(t.app, { name: 'features-other' });
  people.patient = await buildUser(t.app, { org: hb });
  people.admin = await buildUser(t.app, { org: hb, roles: ['org_admin'] });
  people.superadmin = await buildUser(t.app, { org: hb, roles: ['org_admin'], is_superadmin: true });
  people.nwPatient = await buildUser(t.app, { org: nw });
  people.nwAdmin = await buildUser(t.app, { org: nw, roles: ['org_admin'] });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload ? { payload } : {}) });
const features = async (who: string, orgId: number, lang = 'en') =>
  (await call('POST', '/api/v1/features/get-features/', tokens[who]!, { organization_id: orgId }, { 'accept-language': lang })).json<FeatureEntry[]>();
const byKey = (list: FeatureEntry[]) => Object.fromEntries(list.map((f) => [f.key, f]));

describe('POST /api/v1/features/get-features/', () => {
  it('answers the catalogue with what a member gets, in the reader language', async () => {
    const list = byKey(await features('patient', hb.id));
    for (const key of ['dashboard', 'health-records', 'calendar', 'careclub', 'journal', 'document-center', 'insurance', 'connection-hub']) {
      expect(list[key], key).toMatchObject({ id: expect.any(Number), feature_route: expect.any(String), icon_name: expect.any(String) });
    }
    expect(list.dashboard).toMatchObject({ display_name: 'Dashboard', feature_status: 'active', feature_route: 'dashboard' });
    // Not built yet: the demo hides it (never a link to an empty page); an available feature an organisation holds back is Coming Soon!.
    expect(list['file-library']!.feature_status).toBe('disabled');
    expect(list.insurance!.feature_status).toBe('inactive');
    // Built since: Emergency (the organisation's numbers), active.
    expect(list.emergency!.feature_status).toBe('active');
    // Built (the care network): active in both demo organisations.
    expect(list.careclub!.feature_status).toBe('active');
    expect(list['medical-transportation']!.feature_status).toBe('disabled');
    expect(list.operations).toBeUndefined();
    const greek = byKey(await features('patient', hb.id, 'el'));
    expect(greek.dashboard!.display_name).toBe('Πίνακας ελέγχου');
  });

  it('differs between the demo organisations', async () => {
    const [a, b] = [byKey(await features('patient', hb.id)), byKey(await features('nwPatient', nw.id))];
    expect(a.teleconsultation!.feature_status).toBe('active');
    expect(b.teleconsultation!.feature_status).toBe('disabled');
    // A demo shows what works: nothing of either is "Coming Soon!" for want of a page.
    for (const list of [a, b]) expect(Object.values(list).filter((f) => f.feature_status === 'inactive' && f.key !== 'insurance')).toEqual([]);
    expect(b.careclub!.feature_status).toBe('active');
    expect(a.help!.feature_status).toBe('active');
    expect(b.help!.feature_status).toBe('active');
    expect(a.assistant!.feature_status).toBe('active');
    expect(b.assistant!.feature_status).toBe('disabled');
  });

  it('lists Operations for super admins only', async () => {
    expect(byKey(await features('superadmin', hb.id)).operations).toMatchObject({ feature_status: 'active', feature_route: 'operations' });
    expect(byKey(await features('admin', hb.id)).operations).toBeUndefined();
  });

  it("answers 404 for another organisation's features, whoever asks", async () => {
    for (const who of ['patient', 'admin', 'superadmin']) {
      const res = await call('POST', '/api/v1/features/get-features/', tokens[who]!, { organization_id: nw.id });
      expect(res.statusCode, who).toBe(404);
    }
    expect((await call('POST', '/api/v1/features/get-features/', tokens.patient!, { organization_id: 2 ** 31 })).json()).toEqual({
      organization_id: ['Ensure this value is less than or equal to 2147483647.'],
    });
  });
});

describe('setting a feature status', () => {
  const featureId = async (key: string) => byKey(await features('patient', hb.id))[key]!.id;
  const put = (who: string, id: number, body: object) => call('PUT', `/api/v1/features/${id}/`, tokens[who]!, body);

  it('an organisation admin disables a feature: members no longer get it, at once, and it is audited', async () => {
    const help = await featureId('help');
    const res = await put('admin', help, { organization_id: hb.id, feature_status: 'disabled' });
    expect(res.statusCode).toBe(200);
    expect(res.json<FeatureSetting>()).toMatchObject({ key: 'help', configured_status: 'disabled', feature_status: 'disabled', available: true, core: false });
    expect(byKey(await features('patient', hb.id)).help!.feature_status).toBe('disabled');
    // Its API is refused with a clear detail; switched on again, it answers.
    const refused = await call('GET', '/api/v1/test-help/', tokens.patient!);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'This feature is turned off for your organisation.' });
    expect((await put('admin', help, { organization_id: hb.id, feature_status: 'active' })).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/test-help/', tokens.patient!)).statusCode).toBe(200);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['subject', 'detail', 'actor_user_id'])
      .where('action', '=', 'feature_update')
      .where('outcome', '=', 'success')
      .orderBy('id')
      .execute();
    expect(audit.slice(-2)).toEqual([
      { subject: 'feature:help', detail: { from: 'active', to: 'disabled' }, actor_user_id: people.admin!.id },
      { subject: 'feature:help', detail: { from: 'disabled', to: 'active' }, actor_user_id: people.admin!.id },
    ]);
  });

  it('a feature whose pages do not exist yet stays "Coming Soon!" and its API refused, even when set active', async () => {
    const library = await featureId('file-library');
    const res = await put('admin', library, { organization_id: hb.id, feature_status: 'active' });
    expect(res.json<FeatureSetting>()).toMatchObject({ configured_status: 'active', feature_status: 'inactive', available: false });
    const refused = await call('GET', '/api/v1/test-file-library/', tokens.patient!, undefined, { 'accept-language': 'el' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: 'Αυτή η λειτουργία δεν είναι ακόμη διαθέσιμη.' });
  });

  it('a super admin sets any organisation’s features', async () => {
    const insurance = byKey(await features('nwPatient', nw.id)).insurance!.id;
    const res = await put('superadmin', insurance, { organization_id: nw.id, feature_status: 'inactive' });
    expect(res.statusCode).toBe(200);
    expect(byKey(await features('nwPatient', nw.id)).insurance!.feature_status).toBe('inactive');
    const list = await call('GET', `/api/v1/features/?organization_id=${nw.id}`, tokens.superadmin!);
    expect(list.json<FeatureSetting[]>().find((f) => f.key === 'insurance')).toMatchObject({ configured_status: 'inactive', updated_at: expect.any(String) });
  });

  it('refuses patients (403), administrators of another organisation (404), unknown values (400 naming the field) and core features (400)', async () => {
    const help = await featureId('help');
    expect((await put('patient', help, { organization_id: hb.id, feature_status: 'disabled' })).statusCode).toBe(403);
    expect((await put('nwAdmin', help, { organization_id: hb.id, feature_status: 'disabled' })).statusCode).toBe(404);
    expect((await call('GET', `/api/v1/features/?organization_id=${hb.id}`, tokens.nwAdmin!)).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/features/', tokens.patient!)).statusCode).toBe(403);
    const bad = await put('admin', help, { organization_id: hb.id, feature_status: 'paused' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ feature_status: ['Choose active, inactive or disabled.'] });
    const core = await put('admin', await featureId('dashboard'), { organization_id: hb.id, feature_status: 'disabled' });
    expect(core.statusCode).toBe(400);
    expect(core.json()).toEqual({ detail: 'This feature is always on; its status cannot be changed.' });
    expect((await put('admin', 999_999, { organization_id: hb.id, feature_status: 'disabled' })).statusCode).toBe(404);
    expect(byKey(await features('patient', hb.id)).help!.feature_status).toBe('active');
    expect((await put('admin', help, { organization_id: other.id, feature_status: 'disabled' })).statusCode).toBe(404);
  });
});

describe('POST /api/v1/operationsdashboard/save_operations/', () => {
  it('records a navigation of a member to a feature of their organisation', async () => {
    const dashboard = byKey(await features('patient', hb.id)).dashboard!.id;
    const res = await call('POST', '/api/v1/operationsdashboard/save_operations/', tokens.patient!, { organization_id: hb.id, feature_id: dashboard });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ feature_id: dashboard, at: expect.any(String) });
    const rows = await t.db.selectFrom('operations').select(['org_id', 'user_id', 'feature_id']).where('user_id', '=', people.patient!.id).execute();
    expect(rows).toEqual([{ org_id: hb.id, user_id: people.patient!.id, feature_id: dashboard }]);
  });

  it("refuses another organisation (404), an unknown feature (400) and one members can't use (403)", async () => {
    const list = byKey(await features('patient', hb.id));
    const save = (body: object) => call('POST', '/api/v1/operationsdashboard/save_operations/', tokens.patient!, body);
    expect((await save({ organization_id: nw.id, feature_id: list.dashboard!.id })).statusCode).toBe(404);
    expect((await save({ organization_id: hb.id, feature_id: 999_999 })).json()).toEqual({ feature_id: ['There is no such feature.'] });
    expect((await save({ organization_id: hb.id, feature_id: list['medical-transportation']!.id })).statusCode).toBe(403);
    expect((await save({ organization_id: hb.id, feature_id: list['file-library']!.id })).statusCode).toBe(403);
    const operations = byKey(await features('superadmin', hb.id)).operations!.id;
    expect((await save({ organization_id: hb.id, feature_id: operations })).statusCode).toBe(403);
  });
});

describe.runIf(testDbKind() === 'postgres')('cached statuses and branding across processes (Redis)', () => {
  let redisA: Redis;
  let redisB: Redis;
  let second: TestApp;
  let reachable = true;

  beforeAll(async () => {
    const probe = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    reachable = await probe.connect().then(
      () => true,
      () => false,
    );
    probe.disconnect();
    if (!reachable) return;
    redisA = new Redis({ host: '127.0.0.1', port: 6379 });
    redisB = new Redis({ host: '127.0.0.1', port: 6379 });
  });
  afterAll(async () => {
    await second?.close();
    redisA?.disconnect();
    redisB?.disconnect();
  });

  it('a change through one process is seen by another at once', async (ctx) => {
    if (!reachable) ctx.skip();
    const first = await buildTestApp({ redis: redisA, seed: true });
    try {
      second = await buildTestApp({ redis: redisB, databaseUrl: first.databaseUrl! });
      const org = (await first.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()).id;
      const admin = await buildUser(first.app, { org: { id: org }, roles: ['org_admin'] });
      const patient = await buildUser(first.app, { org: { id: org } });
      const adminToken = (await signIn(first.app, { email: admin.email, password: admin.password, org_id: org })).access;
      const patientToken = (await signIn(second.app, { email: patient.email, password: patient.password, org_id: org })).access;
      const list = async () =>
        byKey(
          (
            await second.app.inject({ method: 'POST', url: '/api/v1/features/get-features/', headers: bearer(patientToken), payload: { organization_id: org } })
          ).json<FeatureEntry[]>(),
        );
      expect((await list()).help!.feature_status).toBe('active'); // now cached in the second process
      const help = (await list()).help!.id;
      await first.app.inject({ method: 'PUT', url: `/api/v1/features/${help}/`, headers: bearer(adminToken), payload: { organization_id: org, feature_status: 'disabled' } });
      await expect.poll(async () => (await list()).help!.feature_status, { timeout: 2000, interval: 20 }).toBe('disabled');

      const lookup = async () => (await second.app.inject({ method: 'GET', url: '/api/v1/organization_detail_by_name/healthbook' })).json().video_channel_url;
      expect(await lookup()).toBe('https://www.youtube.com/@WHO');
      const changed = await first.app.inject({
        method: 'PUT',
        url: `/api/v1/organizations/${org}/settings/`,
        headers: bearer(adminToken),
        payload: { video_channel_url: 'https://videos.example/healthbook' },
      });
      expect(changed.statusCode).toBe(200);
      await expect.poll(lookup, { timeout: 2000, interval: 20 }).toBe('https://videos.example/healthbook');
    } finally {
      await second?.close();
      await first.close();
    }
  });
});

describe('organisation settings', () => {
  it('an admin sets the video channel (https only) or removes it; others may not', async () => {
    const put = (who: string, orgId: number, body: object) => call('PUT', `/api/v1/organizations/${orgId}/settings/`, tokens[who]!, body);
    expect((await put('patient', hb.id, { video_channel_url: null })).statusCode).toBe(403);
    expect((await put('nwAdmin', hb.id, { video_channel_url: null })).statusCode).toBe(404);
    expect((await put('admin', hb.id, { video_channel_url: 'javascript:alert(1)' })).json()).toEqual({ video_channel_url: ['Enter an address starting with https://.'] });
    const res = await put('nwAdmin', nw.id, { video_channel_url: 'https://videos.example/northwind' });
    expect(res.json()).toMatchObject({ name: 'northwind', video_channel_url: 'https://videos.example/northwind' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/organization_detail_by_name/northwind' })).json().video_channel_url).toBe(
      'https://videos.example/northwind',
    );
    expect((await put('nwAdmin', nw.id, { video_channel_url: null })).json().video_channel_url).toBeNull();
  });

  it('an admin sets the help contacts and crisis lines; a bad number or address changes nothing', async () => {
    const put = (who: string, orgId: number, body: object) => call('PUT', `/api/v1/organizations/${orgId}/settings/`, tokens[who]!, body);
    const lines = [{ number: '1018', name: { en: 'Suicide prevention line', el: 'Γραμμή για την αυτοκτονία' } }];
    const res = await put('nwAdmin', nw.id, { emergency_number: '112', crisis_lines: lines, support_email: 'help@nw.example', support_phone: '+30 210 555 0100' });
    expect(res.json()).toMatchObject({ emergency_number: '112', crisis_lines: lines, support_email: 'help@nw.example', support_phone: '+30 210 555 0100' });
    const bad = await put('nwAdmin', nw.id, { emergency_number: 'call me', support_email: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json()).sort()).toEqual(['emergency_number', 'support_email']);
    const after = (await t.app.inject({ method: 'GET', url: '/api/v1/organization_detail_by_name/northwind' })).json();
    expect(after).toMatchObject({ emergency_number: '112', crisis_lines: lines, support_email: 'help@nw.example' });
    expect((await put('patient', hb.id, { emergency_number: '999' })).statusCode).toBe(403);
  });
});
