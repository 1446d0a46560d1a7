// On PostgreSQL too (vitest.config.ts): changes made through one process seen by another on the same database.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminOrganization, CreatedShare, OrganizationDetail } from '@healthbook/shared';
import { buildTestApp, testDbKind, type TestApp } from './build-app';
import { redisReachable } from './redis';
import { bearer, buildOrganization, buildUser, signIn, type BuiltUser } from './factories';
import { png } from './png';

/**
 * Organisations for super admins (issue 25 §2): the list with its counts, creation and changes
 * under the client-id and contrast rules, logo and favicon uploads (sanitised SVG, bounded
 * sizes), and deactivation: sign-in refused with its message, sessions ended, share links
 * unavailable, all restored on reactivation. Everyone else: 403; nothing half-written.
 */

let t: TestApp;
let hb: { id: number };
let nw: { id: number };
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true, perIpLimitFloor: 10_000, shareLimitFloor: 1000 });
  const orgs = await t.db.selectFrom('organizations').select(['id', 'name']).execute();
  hb = orgs.find((o) => o.name === 'healthbook')!;
  nw = orgs.find((o) => o.name === 'northwind')!;
  people.superadmin = await buildUser(t.app, { org: hb, roles: ['org_admin'], is_superadmin: true });
  people.admin = await buildUser(t.app, { org: hb, roles: ['org_admin'] });
  people.patient = await buildUser(t.app, { org: hb });
  people.nwAdmin = await buildUser(t.app, { org: nw, roles: ['org_admin'] });
  people.nwPatient = await buildUser(t.app, { org: nw, first_name: 'Nora', dob: '1985-02-03' });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string | null, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...(who ? bearer(tokens[who]!) : {}), 'accept-language': lang }, ...(payload ? { payload } : {}) });

const upload = (who: string, id: number, asset: 'logo' | 'favicon', data: Buffer, filename: string, type: string) => {
  const boundary = `----orgs${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({ method: 'PUT', url: `/api/v1/admin/organizations/${id}/${asset}/`, payload, headers: { ...bearer(tokens[who]!), 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' } });
};

const organizationCount = async () => Number((await t.db.selectFrom('organizations').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
const rowOf = (id: number) => t.db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const branding = async (name: string) => (await t.app.inject({ method: 'GET', url: `/api/v1/organization_detail_by_name/${name}` })).json<OrganizationDetail & { org: number | string }>();

const valid = { name: 'riverside', org_name: 'Riverside Clinic', org_short_name: 'Riverside', primary_color: '#1b5e20' };

describe('who may manage organisations', () => {
  it('answers 401 without a token and 403 to an organisation admin or a patient, writing nothing', async () => {
    const before = await organizationCount();
    for (const who of ['admin', 'patient', 'nwAdmin'] as const) {
      expect((await call(who, 'GET', '/api/v1/admin/organizations/')).statusCode).toBe(403);
      expect((await call(who, 'GET', `/api/v1/admin/organizations/${nw.id}/`)).statusCode).toBe(403);
      expect((await call(who, 'POST', '/api/v1/admin/organizations/', { ...valid, name: `x-${who.toLowerCase()}` })).statusCode).toBe(403);
      expect((await call(who, 'PATCH', `/api/v1/admin/organizations/${nw.id}/`, { org_name: 'Taken over' })).statusCode).toBe(403);
      expect((await call(who, 'POST', `/api/v1/admin/organizations/${nw.id}/deactivate/`)).statusCode).toBe(403);
      expect((await upload(who, nw.id, 'logo', png(32, 32), 'a.png', 'image/png')).statusCode).toBe(403);
    }
    expect((await call(null, 'GET', '/api/v1/admin/organizations/')).statusCode).toBe(401);
    expect(await organizationCount()).toBe(before);
    expect((await rowOf(nw.id)).org_name).toBe('Northwind Health');
    expect((await rowOf(nw.id)).deactivated_at).toBeNull();
  });

  it('answers 404 for an organisation that does not exist', async () => {
    expect((await call('superadmin', 'GET', '/api/v1/admin/organizations/999999/')).statusCode).toBe(404);
    expect((await call('superadmin', 'PATCH', '/api/v1/admin/organizations/999999/', { org_name: 'X' })).statusCode).toBe(404);
    expect((await call('superadmin', 'POST', '/api/v1/admin/organizations/999999/deactivate/')).statusCode).toBe(404);
  });
});

describe('the list', () => {
  it('names every organisation with its client id, users, patients and status', async () => {
    const res = await call('superadmin', 'GET', '/api/v1/admin/organizations/');
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json<AdminOrganization[]>();
    const north = list.find((o) => o.name === 'northwind')!;
    const users = Number((await t.db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('org_id', '=', nw.id).executeTakeFirstOrThrow()).n);
    const patients = Number((await t.db.selectFrom('patients').select((eb) => eb.fn.countAll<string>().as('n')).where('org_id', '=', nw.id).executeTakeFirstOrThrow()).n);
    expect(north).toMatchObject({ org: nw.id, org_name: 'Northwind Health', active: true, deactivated_at: null, users, patients });
    expect(users).toBeGreaterThanOrEqual(2);
    expect(list.map((o) => o.name)).toContain('healthbook');
  });
});

describe('creating an organisation', () => {
  it('creates it, audited, and its branding answers at once', async () => {
    const res = await call('superadmin', 'POST', '/api/v1/admin/organizations/', { ...valid, emergency_number: '166', support_email: 'help@riverside.example', crisis_lines: [{ number: '1018', name: { en: 'Suicide help line', el: 'Γραμμή παρέμβασης για την αυτοκτονία' } }] });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<AdminOrganization>();
    expect(created).toMatchObject({ name: 'riverside', org_name: 'Riverside Clinic', primary_color: '#1b5e20', active: true, users: 0, patients: 0, emergency_number: '166', logo_url: null });
    expect(await branding('riverside')).toMatchObject({ org: created.org, org_name: 'Riverside Clinic', active: true, support_email: 'help@riverside.example' });
    const audit = await t.db.selectFrom('audit_log').select(['action', 'outcome', 'actor_user_id']).where('org_id', '=', created.org).where('action', '=', 'organization_create').execute();
    expect(audit).toEqual([{ action: 'organization_create', outcome: 'success', actor_user_id: people.superadmin!.id }]);
  });

  it("shows in a browser's kept copy of the list and of its branding at once: they are revalidated, not kept for a while", async () => {
    const ask = (url: string, etag?: string) => t.app.inject({ method: 'GET', url, headers: etag ? { 'if-none-match': etag } : {} });
    const list = await ask('/api/v1/organization_detail/');
    const missing = await ask('/api/v1/organization_detail_by_name/brookside');
    for (const [url, kept] of [['/api/v1/organization_detail/', list], ['/api/v1/organization_detail_by_name/brookside', missing]] as const) {
      expect(kept.headers['cache-control']).toBe('public, no-cache');
      // Unchanged: a 304 without a body.
      const again = await ask(url, String(kept.headers.etag));
      expect([again.statusCode, again.body]).toEqual([304, '']);
    }
    expect((await call('superadmin', 'POST', '/api/v1/admin/organizations/', { ...valid, name: 'brookside', org_name: 'Brookside Clinic' })).statusCode).toBe(201);
    const newList = await ask('/api/v1/organization_detail/', String(list.headers.etag));
    expect(newList.statusCode).toBe(200);
    expect(newList.json<OrganizationDetail[]>().map((o) => o.name)).toContain('brookside');
    const found = await ask('/api/v1/organization_detail_by_name/brookside', String(missing.headers.etag));
    expect(found.json()).toMatchObject({ org_name: 'Brookside Clinic' });
  });

  it.each([
    ['a client id already taken', { name: 'northwind' }, 'name', 'An organisation with this client id already exists.'],
    ['a reserved client id', { name: 'login' }, 'name', 'used by the application’s own addresses'],
    ['the reserved "api"', { name: 'api' }, 'name', 'used by the application’s own addresses'],
    ['a malformed client id', { name: 'Bad_Id!' }, 'name', 'lower-case letters'],
    ['a one-letter client id', { name: 'a' }, 'name', '2 to 32'],
    ['a colour text cannot read on (light)', { name: 'pinkclinic', primary_color: '#e91e63' }, 'primary_color', 'in light mode'],
    ['a grey text cannot read on', { name: 'greyclinic', primary_color: '#777777' }, 'primary_color', 'WCAG AA needs 4.5:1'],
    ['a colour that is no colour', { name: 'nocolour', primary_color: 'blue' }, 'primary_color', '#rrggbb'],
    ['no name', { name: 'noname', org_name: '' }, 'org_name', 'required'],
    ['a bad emergency number', { name: 'badphone', emergency_number: 'call us' }, 'emergency_number', 'phone number'],
  ])('refuses %s with 400 naming the field, writing nothing', async (_label, change, field, message) => {
    const before = await organizationCount();
    const res = await call('superadmin', 'POST', '/api/v1/admin/organizations/', { ...valid, ...change });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<Record<string, string[]>>();
    expect(Object.keys(body)).toContain(field);
    expect(body[field]!.join(' ')).toContain(message);
    expect(await organizationCount()).toBe(before);
  });

  it('says why a colour is refused in Greek too', async () => {
    const res = await call('superadmin', 'POST', '/api/v1/admin/organizations/', { ...valid, name: 'pink-el', primary_color: '#e91e63' }, 'el');
    expect(res.statusCode).toBe(400);
    expect(res.json<Record<string, string[]>>().primary_color![0]).toMatch(/φωτεινή εμφάνιση.*4\.5:1/);
  });

  it('creates one organisation when many requests ask for the same client id at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call('superadmin', 'POST', '/api/v1/admin/organizations/', { ...valid, name: 'race-clinic', org_name: `Race ${i}` })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 201)) {
      expect(a.statusCode, a.body).toBe(400);
      expect(a.json<Record<string, string[]>>().name).toEqual(['An organisation with this client id already exists.']);
    }
    expect(await t.db.selectFrom('organizations').select('id').where('name', '=', 'race-clinic').execute()).toHaveLength(1);
  });
});

describe('changing an organisation', () => {
  let org: { id: number; name: string };
  beforeAll(async () => {
    org = await buildOrganization(t.app, { name: 'lakeside', org_name: 'Lakeside', primary_color: '#0d47a1' });
  });

  it('renames it and moves its client id; the old address is no organisation any more, in every answer at once', async () => {
    expect((await branding('lakeside')).org).toBe(org.id);
    const res = await call('superadmin', 'PATCH', `/api/v1/admin/organizations/${org.id}/`, { name: 'lakeside-health', org_name: 'Lakeside Health', primary_color: '#004d40' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await branding('lakeside')).org).toBe('Organization not found');
    expect(await branding('lakeside-health')).toMatchObject({ org: org.id, org_name: 'Lakeside Health', primary_color: '#004d40' });
    const audit = await t.db.selectFrom('audit_log').select('detail').where('org_id', '=', org.id).where('action', '=', 'organization_update').execute();
    expect(audit.at(-1)!.detail).toMatchObject({ client_id_from: 'lakeside', client_id_to: 'lakeside-health' });
  });

  it('accepts its own answer back, read-only fields ignored', async () => {
    const current = (await call('superadmin', 'GET', `/api/v1/admin/organizations/${org.id}/`)).json<AdminOrganization>();
    const res = await call('superadmin', 'PATCH', `/api/v1/admin/organizations/${org.id}/`, { ...current, org_short_name: 'Lakeside' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminOrganization>().org_short_name).toBe('Lakeside');
  });

  it.each([
    [{ name: 'northwind' }, 'name'],
    [{ name: 'register' }, 'name'],
    [{ primary_color: '#e91e63' }, 'primary_color'],
    [{ org_short_name: 'x'.repeat(41) }, 'org_short_name'],
    [{ video_channel_url: 'http://insecure.example' }, 'video_channel_url'],
  ])('refuses %j with 400 under its field, changing nothing', async (change, field) => {
    const before = await rowOf(org.id);
    const res = await call('superadmin', 'PATCH', `/api/v1/admin/organizations/${org.id}/`, { org_name: 'Should not stick', ...change });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toContain(field);
    expect(await rowOf(org.id)).toEqual(before);
  });
});

describe('logo and favicon', () => {
  let org: { id: number; name: string };
  beforeAll(async () => {
    org = await buildOrganization(t.app, { name: 'assets-clinic', primary_color: '#0d47a1' });
  });

  it('takes a PNG logo without its metadata, serves it, and replaces the previous file', async () => {
    const res = await upload('superadmin', org.id, 'logo', png(200, 50, { text: 'GPS 37.98N 23.72E' }), 'logo.png', 'image/png');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<AdminOrganization>();
    expect(body.logo_url).toMatch(/^\/api\/v1\/organizations\/assets-clinic\/logo\?v=\d+$/);
    const served = await t.app.inject({ method: 'GET', url: body.logo_url! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.includes(Buffer.from('GPS'))).toBe(false);
    const firstKey = (await rowOf(org.id)).logo_key!;
    expect(await t.app.storage.get(firstKey)).not.toBeNull();
    expect((await upload('superadmin', org.id, 'logo', png(120, 40), 'logo2.png', 'image/png')).statusCode).toBe(200);
    expect(await t.app.storage.get(firstKey)).toBeNull();
  });

  it('takes a plain SVG favicon, sanitised', async () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0d47a1"/></svg>');
    const res = await upload('superadmin', org.id, 'favicon', svg, 'icon.svg', 'image/svg+xml');
    expect(res.statusCode, res.body).toBe(200);
    const served = await t.app.inject({ method: 'GET', url: res.json<AdminOrganization>().favicon_url! });
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.body).toContain('<rect');
  });

  it.each([
    ['an SVG with script', 'logo', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>'), 'evil.svg', 'image/svg+xml', 400, 'script'],
    ['an SVG with an event handler', 'logo', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'), 'evil.svg', 'image/svg+xml', 400, 'script'],
    ['an SVG with a javascript: link', 'favicon', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect width="10" height="10"/></a></svg>'), 'evil.svg', 'image/svg+xml', 400, 'script'],
    ['an SVG with entities', 'logo', Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>'), 'xxe.svg', 'image/svg+xml', 400, 'script'],
    ['an oversized logo', 'logo', png(100, 100, { text: 'x'.repeat(600 * 1024) }), 'big.png', 'image/png', 413, '512 KB'],
    ['an oversized favicon', 'favicon', png(64, 64, { text: 'x'.repeat(200 * 1024) }), 'big.png', 'image/png', 400, '128 KB'],
    ['a logo too wide', 'logo', png(3000, 20), 'wide.png', 'image/png', 400, 'between 16 and 2048 pixels'],
    ['a GIF', 'logo', Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'), 'a.gif', 'image/gif', 400, 'PNG, JPEG, WebP or SVG'],
    ['a PDF called logo.png', 'logo', Buffer.from('%PDF-1.4\n%%EOF\n'), 'logo.png', 'image/png', 400, 'PNG, JPEG, WebP or SVG'],
  ] as const)('refuses %s under "file", keeping the current asset', async (_label, asset, data, filename, type, status, message) => {
    const before = await rowOf(org.id);
    const res = await upload('superadmin', org.id, asset, data, filename, type);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json<Record<string, string[]>>().file!.join(' ')).toContain(message);
    expect(await rowOf(org.id)).toEqual(before);
  });

  it('removes the logo', async () => {
    const res = await call('superadmin', 'DELETE', `/api/v1/admin/organizations/${org.id}/logo/`);
    expect(res.statusCode).toBe(200);
    expect(res.json<AdminOrganization>().logo_url).toBeNull();
  });
});

describe('deactivation', () => {
  let share: CreatedShare;
  const link = () => {
    const parts = new URL(share.url).pathname.split('/');
    return { uid: parts.at(-2)!, token: parts.at(-1)! };
  };
  const openShare = () => call(null, 'POST', '/api/v1/sharing/public/open/', link());
  const nwSignIn = (lang = 'en') =>
    t.app.inject({ method: 'POST', url: '/api/v1/login/', headers: { 'accept-language': lang }, payload: { email: people.nwPatient!.email, password: people.nwPatient!.password, org: nw.id } });

  beforeAll(async () => {
    const res = await call('nwPatient', 'POST', '/api/v1/sharing/', { recipient_name: 'Dr Grey', recipient_email: 'grey@clinic.example', categories: ['condition'] });
    expect(res.statusCode, res.body).toBe(201);
    share = res.json<CreatedShare>();
  });

  it('refuses to deactivate your own organisation', async () => {
    const res = await call('superadmin', 'POST', `/api/v1/admin/organizations/${hb.id}/deactivate/`);
    expect(res.statusCode).toBe(409);
    expect((await rowOf(hb.id)).deactivated_at).toBeNull();
  });

  it('ends its sessions, refuses sign-in with its message, makes its share links unavailable, and keeps its data', async () => {
    const session = await signIn(t.app, { email: people.nwPatient!.email, password: people.nwPatient!.password, org_id: nw.id });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(session.access) })).statusCode).toBe(200);
    expect((await openShare()).statusCode).toBe(200);
    const recordsBefore = await t.db.selectFrom('users').select('id').where('org_id', '=', nw.id).execute();

    const res = await call('superadmin', 'POST', `/api/v1/admin/organizations/${nw.id}/deactivate/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminOrganization>()).toMatchObject({ active: false, deactivated_at: expect.any(String) });

    // The session ended at once, and its refresh token with it.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(session.access) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/refresh/', payload: { refresh: session.refresh } })).statusCode).toBe(401);
    expect((await call('nwAdmin', 'GET', '/api/v1/me/')).statusCode).toBe(401);
    const live = await t.db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select('sessions.id').where('users.org_id', '=', nw.id).where('sessions.revoked_at', 'is', null).execute();
    expect(live).toEqual([]);

    // Sign-in: refused with a message that says why, in both languages.
    const en = await nwSignIn('en');
    expect(en.statusCode).toBe(403);
    expect(en.json()).toMatchObject({ code: 'organization_deactivated', detail: expect.stringContaining('Northwind Health has been deactivated') });
    const el = await nwSignIn('el');
    expect(el.json<{ detail: string }>().detail).toContain('έχει απενεργοποιηθεί');

    // Share links answer as unavailable.
    const opened = await openShare();
    expect(opened.statusCode).toBe(404);
    expect(opened.json<{ detail: string }>().detail).toBe('This link has expired or is not valid.');

    // The branding says so; the data is kept.
    expect(await branding('northwind')).toMatchObject({ org: nw.id, active: false });
    expect(await t.db.selectFrom('users').select('id').where('org_id', '=', nw.id).execute()).toEqual(recordsBefore);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('org_id', '=', nw.id).where('action', 'in', ['organization_deactivate', 'login']).where('outcome', '<>', 'success').execute();
    expect(audit.some((a) => a.action === 'login')).toBe(true);
  });

  it('restores everything on reactivation', async () => {
    const res = await call('superadmin', 'POST', `/api/v1/admin/organizations/${nw.id}/reactivate/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminOrganization>()).toMatchObject({ active: true, deactivated_at: null });
    const signedIn = await nwSignIn();
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await openShare()).statusCode).toBe(200);
    expect(await branding('northwind')).toMatchObject({ active: true });
    const audit = await t.db.selectFrom('audit_log').select('action').where('org_id', '=', nw.id).where('action', 'in', ['organization_deactivate', 'organization_reactivate']).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['organization_deactivate', 'organization_reactivate']);
  });
});

describe.runIf(testDbKind() === 'postgres')('two server processes (PostgreSQL and Redis)', () => {
  it('a change and a deactivation made through one process take effect in the other at once', async (ctx) => {
    if (!(await redisReachable())) ctx.skip();
    const redisA = new Redis({ host: '127.0.0.1', port: 6379 });
    const redisB = new Redis({ host: '127.0.0.1', port: 6379 });
    const first = await buildTestApp({ redis: redisA, seed: true });
    let second: TestApp | undefined;
    try {
      second = await buildTestApp({ redis: redisB, databaseUrl: first.databaseUrl! });
      const nwId = (await first.db.selectFrom('organizations').select('id').where('name', '=', 'northwind').executeTakeFirstOrThrow()).id;
      const hbId = (await first.db.selectFrom('organizations').select('id').where('name', '=', 'healthbook').executeTakeFirstOrThrow()).id;
      const admin = await buildUser(first.app, { org: { id: hbId }, roles: ['org_admin'], is_superadmin: true });
      const member = await buildUser(first.app, { org: { id: nwId } });
      const adminToken = (await signIn(first.app, { email: admin.email, password: admin.password, org_id: hbId })).access;
      const memberToken = (await signIn(second.app, { email: member.email, password: member.password, org_id: nwId })).access;
      const lookup = async () => (await second!.app.inject({ method: 'GET', url: '/api/v1/organization_detail_by_name/northwind' })).json<OrganizationDetail>();
      const me = async () => (await second!.app.inject({ method: 'GET', url: '/api/v1/me/', headers: bearer(memberToken) })).statusCode;
      expect((await lookup()).primary_color).toBe('#00695c'); // cached in the second process
      expect(await me()).toBe(200); // the session is cached there too

      const changed = await first.app.inject({ method: 'PATCH', url: `/api/v1/admin/organizations/${nwId}/`, headers: bearer(adminToken), payload: { primary_color: '#1b5e20', org_name: 'Northwind Care' } });
      expect(changed.statusCode, changed.body).toBe(200);
      await expect.poll(async () => (await lookup()).org_name, { timeout: 2000, interval: 20 }).toBe('Northwind Care');

      expect((await first.app.inject({ method: 'POST', url: `/api/v1/admin/organizations/${nwId}/deactivate/`, headers: bearer(adminToken) })).statusCode).toBe(200);
      await expect.poll(me, { timeout: 2000, interval: 20 }).toBe(401);
      await expect.poll(async () => (await lookup()).active, { timeout: 2000, interval: 20 }).toBe(false);
      const refused = await second.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { email: member.email, password: member.password, org: nwId } });
      expect(refused.statusCode).toBe(403);
    } finally {
      await second?.close();
      await first.close();
      redisA.disconnect();
      redisB.disconnect();
    }
  });
});
