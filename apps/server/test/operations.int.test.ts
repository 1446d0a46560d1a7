import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureEntry, OperationsSummary } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildInvitation, buildMfaDevice, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';

/**
 * The super admin's operations dashboard: its figures against activity made through the real
 * routes (sign-ins, failures, a lockout, saved operations) and rows made by factories
 * (accounts, second factors, invitations); nobody else may read them.
 */

let t: TestApp;
let org: { id: number; name: string };
let superToken: string;
let adminToken: string;
let patientToken: string;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const login = (user: BuiltUser, password = user.password) =>
  t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { email: user.email, password, org: user.org_id } });

beforeAll(async () => {
  t = await buildTestApp();
  org = await buildOrganization(t.app, { name: 'ops-clinic' });
  const home = await buildOrganization(t.app, { name: 'ops-home' });
  const elsewhere = await buildOrganization(t.app, { name: 'ops-elsewhere' });
  const superadmin = await buildUser(t.app, { org: home, roles: ['org_admin'], is_superadmin: true });
  superToken = (await signIn(t.app, { email: superadmin.email, password: superadmin.password, org_id: home.id })).access;

  const [p1, p2, p3, p4] = await Promise.all([1, 2, 3, 4].map(() => buildUser(t.app, { org })));
  const admin = await buildUser(t.app, { org, roles: ['org_admin'] });
  await buildUser(t.app, { org, is_active: false });
  // Sign-ins: p1 twice, p2 and the admin once (4); p3 fails twice; p4 fails five times and is then locked out.
  patientToken = (await signIn(t.app, { email: p1!.email, password: p1!.password, org_id: org.id })).access;
  await signIn(t.app, { email: p1!.email, password: p1!.password, org_id: org.id });
  await signIn(t.app, { email: p2!.email, password: p2!.password, org_id: org.id });
  adminToken = (await signIn(t.app, { email: admin.email, password: admin.password, org_id: org.id })).access;
  for (let i = 0; i < 2; i++) expect((await login(p3!, 'Wrong#Pass1')).statusCode).toBe(401);
  for (let i = 0; i < 5; i++) expect((await login(p4!, 'Wrong#Pass1')).statusCode).toBe(401);
  expect((await login(p4!)).statusCode).toBe(429);
  // Second factors: one confirmed, one still being enrolled (not counted).
  await buildMfaDevice(t.app, { user: p1! });
  await buildMfaDevice(t.app, { user: p2!, confirmed: false });
  // Invitations: two pending, one used today, one expired an hour ago.
  await buildInvitation(t.app, { org });
  await buildInvitation(t.app, { org });
  await buildInvitation(t.app, { org, used_at: new Date() });
  await buildInvitation(t.app, { org, expires_at: new Date(Date.now() - 3_600_000) });
  // Saved operations: the dashboard three times, help once.
  const features = (
    await t.app.inject({ method: 'POST', url: '/api/v1/features/get-features/', headers: bearer(patientToken), payload: { organization_id: org.id } })
  ).json<FeatureEntry[]>();
  const id = (key: string) => features.find((f) => f.key === key)!.id;
  for (const key of ['dashboard', 'dashboard', 'help', 'dashboard']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/operationsdashboard/save_operations/',
      headers: bearer(patientToken),
      payload: { organization_id: org.id, feature_id: id(key) },
    });
    expect(res.statusCode).toBe(201);
  }
  // Activity in another organisation must not count here.
  const stranger = await buildUser(t.app, { org: elsewhere });
  await signIn(t.app, { email: stranger.email, password: stranger.password, org_id: elsewhere.id });
  await login(stranger, 'Wrong#Pass1');
});
afterAll(async () => {
  await t?.close();
});

const summary = (token: string, query: string) => t.app.inject({ method: 'GET', url: `/api/v1/operationsdashboard/summary/?${query}`, headers: bearer(token) });

describe('GET /api/v1/operationsdashboard/summary/', () => {
  it('answers the figures of real activity to a super admin', async () => {
    const res = await summary(superToken, `organization_id=${org.id}&from=${day(-1)}&to=${day(0)}`);
    expect(res.statusCode).toBe(200);
    const s = res.json<OperationsSummary>();
    expect(s.organization).toEqual({ id: org.id, name: 'ops-clinic', org_name: expect.any(String) });
    expect(s.period).toEqual({ from: day(-1), to: day(0), tz: 'UTC' });
    expect(s.patients).toBe(4);
    expect(s.users).toBe(5);
    expect(s.active_users).toEqual({ last_7_days: 3, last_30_days: 3 });
    expect(s.daily.map((d) => d.date)).toEqual([day(-1), day(0)]);
    const total = (k: 'sign_ins' | 'failed_sign_ins' | 'lockouts') => s.daily.reduce((sum, d) => sum + d[k], 0);
    expect({ sign_ins: total('sign_ins'), failed: total('failed_sign_ins'), lockouts: total('lockouts') }).toEqual({ sign_ins: 4, failed: 7, lockouts: 1 });
    expect(s.second_factor).toEqual({ users_with: 1, users: 5, share: 0.2 });
    expect(s.invitations).toEqual({ pending: 2, used: 1, expired: 1 });
    expect(s.feature_usage.map((f) => [f.key, f.uses])).toEqual([
      ['dashboard', 3],
      ['help', 1],
    ]);
  });

  it('names features in the reader language and counts days in the chosen time zone', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/operationsdashboard/summary/?organization_id=${org.id}&from=${day(-2)}&to=${day(1)}&tz=Pacific/Kiritimati`,
      headers: { ...bearer(superToken), 'accept-language': 'el' },
    });
    const s = res.json<OperationsSummary>();
    expect(s.feature_usage[0]!.display_name).toBe('Πίνακας ελέγχου');
    expect(s.daily).toHaveLength(4);
    expect(s.daily.reduce((sum, d) => sum + d.sign_ins, 0)).toBe(4);
  });

  it('an empty period has zero days of activity, not missing days', async () => {
    const s = (await summary(superToken, `organization_id=${org.id}&from=2020-01-01&to=2020-01-03`)).json<OperationsSummary>();
    expect(s.daily).toEqual(['2020-01-01', '2020-01-02', '2020-01-03'].map((date) => ({ date, sign_ins: 0, failed_sign_ins: 0, lockouts: 0 })));
    expect(s.feature_usage).toEqual([]);
  });

  it('is refused to everyone but super admins (403), audited', async () => {
    for (const token of [adminToken, patientToken]) {
      expect((await summary(token, `organization_id=${org.id}&from=${day(0)}&to=${day(0)}`)).statusCode).toBe(403);
    }
    const denied = await t.db.selectFrom('audit_log').select(sql<number>`count(*)::int`.as('n')).where('action', '=', 'operations_read').where('outcome', '=', 'denied').executeTakeFirstOrThrow();
    expect(denied.n).toBe(2);
  });

  it('checks its parameters', async () => {
    const bad = async (query: string) => (await summary(superToken, query)).json();
    expect(await bad(`organization_id=${org.id}&from=${day(0)}&to=${day(0)}&tz=Mars/Olympus`)).toEqual({ tz: ['Unknown time zone.'] });
    expect(await bad(`organization_id=${org.id}&from=${day(0)}&to=${day(-1)}`)).toEqual({ to: ['The end of the period must not be before its start.'] });
    expect(await bad(`organization_id=${org.id}&from=2024-01-01&to=2025-06-01`)).toEqual({ to: ['Choose a period of at most 366 days.'] });
    expect(await bad(`organization_id=${org.id}&from=2024-02-30&to=2024-03-01`)).toEqual({ from: ['Enter a date as YYYY-MM-DD.'] });
    expect((await summary(superToken, `organization_id=999999&from=${day(0)}&to=${day(0)}`)).statusCode).toBe(404);
  });
});

describe('GET /api/v1/operationsdashboard/export/', () => {
  it('answers the same figures as a CSV download', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/operationsdashboard/export/?organization_id=${org.id}&from=${day(-1)}&to=${day(0)}`,
      headers: bearer(superToken),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="operations-ops-clinic-${day(-1)}-${day(0)}.csv"`);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('organization,metric,date,feature,value');
    expect(lines).toContain('ops-clinic,patients,,,4');
    expect(lines).toContain('ops-clinic,feature_uses,,dashboard,3');
    const signIns = lines.filter((l) => l.startsWith('ops-clinic,sign_ins,')).map((l) => Number(l.split(',')[4]));
    expect(signIns.reduce((a, b) => a + b, 0)).toBe(4);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/operationsdashboard/export/?organization_id=${org.id}&from=${day(0)}&to=${day(0)}`, headers: bearer(adminToken) })).statusCode).toBe(403);
  });
});
