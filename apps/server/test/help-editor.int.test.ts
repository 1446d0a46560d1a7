import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminHelpArticle, HelpArticle } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildUser, signIn, type BuiltUser } from './factories';

/**
 * The help articles' editors (issue 25 §3): organisation admins write their organisation's own
 * articles in both languages (another organisation: 404), super admins any; members see the
 * change at once; bad input is a 400 naming the field with nothing written.
 */

let t: TestApp;
let hb: { id: number };
let nw: { id: number };
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp({ seed: true, perIpLimitFloor: 10_000 });
  const orgs = await t.db.selectFrom('organizations').select(['id', 'name']).execute();
  hb = orgs.find((o) => o.name === 'healthbook')!;
  nw = orgs.find((o) => o.name === 'northwind')!;
  people.admin = await buildUser(t.app, { org: hb, roles: ['org_admin'] });
  people.patient = await buildUser(t.app, { org: hb });
  people.nwAdmin = await buildUser(t.app, { org: nw, roles: ['org_admin'] });
  people.nwPatient = await buildUser(t.app, { org: nw });
  people.superadmin = await buildUser(t.app, { org: hb, roles: ['org_admin'], is_superadmin: true });
  for (const [name, user] of Object.entries(people)) tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'PUT' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': lang }, ...(payload ? { payload } : {}) });
const articles = (orgId: number) => `/api/v1/organizations/${orgId}/help/articles/`;
const ownRows = async (orgId: number) => t.db.selectFrom('help_articles').selectAll().where('org_id', '=', orgId).orderBy('id').execute();

const parking = {
  title_en: 'Parking at the clinic',
  title_el: 'Στάθμευση στην κλινική',
  body_en: 'Free parking behind the building.\n\n- Bicycle racks at the door.',
  body_el: 'Δωρεάν στάθμευση πίσω από το κτίριο.\n\n- Θέσεις για ποδήλατα στην είσοδο.',
  tags: ['parking', 'στάθμευση'],
};

describe('who may edit', () => {
  it('answers 403 to a patient, 404 for another organisation, nothing written', async () => {
    const before = await ownRows(hb.id);
    expect((await call('patient', 'GET', articles(hb.id))).statusCode).toBe(403);
    expect((await call('patient', 'PUT', `${articles(hb.id)}parking/`, parking)).statusCode).toBe(403);
    expect((await call('nwAdmin', 'GET', articles(hb.id))).statusCode).toBe(404);
    expect((await call('nwAdmin', 'PUT', `${articles(hb.id)}parking/`, parking)).statusCode).toBe(404);
    expect((await call('nwAdmin', 'DELETE', `${articles(hb.id)}parking/`)).statusCode).toBe(404);
    expect((await call('admin', 'GET', articles(nw.id))).statusCode).toBe(404);
    expect((await call('superadmin', 'GET', articles(999_999))).statusCode).toBe(404);
    expect(await ownRows(hb.id)).toEqual(before);
  });
});

describe('editing', () => {
  it('lists the defaults in both languages', async () => {
    const res = await call('admin', 'GET', articles(hb.id));
    expect(res.statusCode).toBe(200);
    const list = res.json<AdminHelpArticle[]>();
    expect(list.length).toBeGreaterThan(3);
    expect(list.find((a) => !a.own)).toMatchObject({ own: false, has_default: true, hidden: false, title_en: expect.any(String), title_el: expect.any(String) });
    for (const article of list) expect(article.title_en.length).toBeGreaterThan(0);
  });

  it('adds an article the members read at once, in their language', async () => {
    const res = await call('admin', 'PUT', `${articles(hb.id)}parking/`, parking);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminHelpArticle>()).toMatchObject({ slug: 'parking', own: true, has_default: false, title_el: 'Στάθμευση στην κλινική' });
    const en = await call('patient', 'GET', '/api/v1/help/articles/parking/');
    expect(en.json<HelpArticle>().title).toBe('Parking at the clinic');
    const el = await call('patient', 'GET', '/api/v1/help/articles/parking/', undefined, 'el');
    expect(el.json<HelpArticle>().title).toBe('Στάθμευση στην κλινική');
    // Another organisation's members do not see it.
    expect((await call('nwPatient', 'GET', '/api/v1/help/articles/parking/')).statusCode).toBe(404);
    const audit = await t.db.selectFrom('audit_log').select(['action', 'actor_user_id']).where('action', '=', 'help_article_save').where('org_id', '=', hb.id).execute();
    expect(audit).toEqual([{ action: 'help_article_save', actor_user_id: people.admin!.id }]);
  });

  it('lets a super admin edit any organisation', async () => {
    const res = await call('superadmin', 'PUT', `${articles(nw.id)}opening-hours/`, { ...parking, title_en: 'Opening hours', title_el: 'Ωράριο λειτουργίας' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('nwPatient', 'GET', '/api/v1/help/articles/opening-hours/')).json<HelpArticle>().title).toBe('Opening hours');
  });

  it('hides a default article and brings it back', async () => {
    const slug = (await call('admin', 'GET', articles(hb.id))).json<AdminHelpArticle[]>().find((a) => !a.own && a.has_default)!.slug;
    expect((await call('patient', 'GET', `/api/v1/help/articles/${slug}/`)).statusCode).toBe(200);
    expect((await call('admin', 'PUT', `${articles(hb.id)}${slug}/`, { hidden: true })).statusCode).toBe(200);
    expect((await call('patient', 'GET', `/api/v1/help/articles/${slug}/`)).statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `${articles(hb.id)}${slug}/`)).statusCode).toBe(204);
    expect((await call('patient', 'GET', `/api/v1/help/articles/${slug}/`)).statusCode).toBe(200);
    expect((await call('admin', 'DELETE', `${articles(hb.id)}${slug}/`)).statusCode).toBe(404);
  });

  it.each([
    [{ ...parking, title_el: '' }, 'title_el'],
    [{ ...parking, body_en: undefined }, 'body_en'],
    [{ ...parking, feature: 'no-such-feature' }, 'feature'],
    [{ ...parking, tags: ['x'.repeat(41)] }, 'tags.0'],
    [{ ...parking, title_en: 'x'.repeat(201) }, 'title_en'],
    [{ ...parking, colour: 'red' }, 'non_field_errors'],
  ])('refuses %j with 400 under its field, writing nothing', async (body, field) => {
    const before = await ownRows(hb.id);
    const res = await call('admin', 'PUT', `${articles(hb.id)}new-article/`, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json())).toContain(field);
    expect(await ownRows(hb.id)).toEqual(before);
  });

  it('refuses a malformed slug', async () => {
    const res = await call('admin', 'PUT', `${articles(hb.id)}Not_A_Slug/`, parking);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toContain('slug');
  });
});
