import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORGANIZATION_NOT_FOUND, type OrganizationDetail } from '@healthbook/shared';
import { DEMO_ORGANIZATIONS } from '../src/db/seed/demo';
import { useTestApp } from './build-app';
import { buildOrganization, PNG_1X1 } from './factories';

const t = useTestApp({ seed: true });

const seedAsset = (file: string) => readFile(path.join(import.meta.dirname, '../src/db/seed/assets', file));

async function lookup(name: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: `/api/v1/organization_detail_by_name/${name}`, headers });
}

describe('GET /api/v1/organization_detail_by_name/{name}', () => {
  it.each(DEMO_ORGANIZATIONS)('answers the complete branding of $name', async (demo) => {
    const res = await lookup(demo.name);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json<OrganizationDetail>();
    expect(body).toEqual({
      org: expect.any(Number),
      name: demo.name,
      org_name: demo.org_name,
      org_short_name: demo.org_short_name,
      org_logo: `${demo.name}-logo.svg`,
      logo_url: expect.stringMatching(new RegExp(`^/api/v1/organizations/${demo.name}/logo\\?v=\\d+$`)),
      favicon_url: expect.stringMatching(new RegExp(`^/api/v1/organizations/${demo.name}/favicon\\?v=\\d+$`)),
      primary_color: demo.primary_color,
      video_channel_url: demo.video_channel_url,
      emergency_number: demo.emergency_number,
      crisis_lines: demo.crisis_lines.map((l) => ({ number: l.number, name: { en: l.name_en, el: l.name_el } })),
      support_email: demo.support_email,
      support_phone: demo.support_phone,
      user_org_details: [{ org: body.org }],
      active: true,
    });
  });

  it('gives each organisation its own id, logo and colour', async () => {
    const [a, b] = await Promise.all([lookup('healthbook'), lookup('northwind')]);
    const [hb, nw] = [a.json<OrganizationDetail>(), b.json<OrganizationDetail>()];
    expect(hb.org).not.toBe(nw.org);
    expect(hb.logo_url).not.toBe(nw.logo_url);
    expect(hb.primary_color).not.toBe(nw.primary_color);
  });

  it.each([
    ['HealthBook', 'healthbook'],
    ['NORTHWIND', 'northwind'],
    ['NorthWind', 'northwind'],
  ])('finds %s case-insensitively', async (asked, expected) => {
    const res = await lookup(asked);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: expected, org: expect.any(Number) });
  });

  it('answers 200 with org "Organization not found" for an unknown name', async () => {
    const res = await lookup('No-Such-Org');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      org: ORGANIZATION_NOT_FOUND,
      name: 'no-such-org',
      org_name: null,
      org_short_name: null,
      org_logo: null,
      logo_url: null,
      favicon_url: null,
      primary_color: null,
      video_channel_url: null,
      emergency_number: null,
      crisis_lines: [],
      support_email: null,
      support_phone: null,
      user_org_details: [],
      active: false,
    });
  });

  it('rejects a name longer than 64 characters with a field error', async () => {
    const res = await lookup('a'.repeat(65));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: ['Ensure this field has no more than 64 characters.'] });
  });

  it('localises the field error by Accept-Language', async () => {
    const res = await lookup('a'.repeat(65), { 'accept-language': 'el' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-language']).toBe('el');
    expect(res.json()).toEqual({ name: ['Αυτό το πεδίο πρέπει να έχει το πολύ 64 χαρακτήρες.'] });
  });

  it('accepts a name of exactly 64 characters', async () => {
    const res = await lookup('a'.repeat(64));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ org: ORGANIZATION_NOT_FOUND });
  });
});

describe('GET /api/v1/organization_detail/', () => {
  it('lists every organisation with the same fields as the lookup', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/organization_detail/' });
    expect(res.statusCode).toBe(200);
    const list = res.json<OrganizationDetail[]>();
    for (const demo of DEMO_ORGANIZATIONS) {
      const one = await lookup(demo.name);
      expect(list).toContainEqual(one.json());
    }
    expect(list.map((o) => o.name)).toEqual([...list.map((o) => o.name)].sort());
  });
});

describe('organisation assets', () => {
  it.each(DEMO_ORGANIZATIONS.flatMap((o) => (['logo', 'favicon'] as const).map((asset) => ({ name: o.name, asset }))))(
    'serves the $asset of $name as SVG',
    async ({ name, asset }) => {
      const detail = (await lookup(name)).json<OrganizationDetail>();
      const url = asset === 'logo' ? detail.logo_url : detail.favicon_url;
      const res = await t.app.inject({ method: 'GET', url: url! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      // An SVG opened directly cannot run script.
      expect(res.headers['content-security-policy']).toContain('sandbox');
      expect(res.rawPayload.equals(await seedAsset(`${name}-${asset}.svg`))).toBe(true);
    },
  );

  it('answers 404 {"detail"} for an unknown organisation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/organizations/no-such-org/logo' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('answers 404 {"detail"} for an organisation without assets', async () => {
    const org = await buildOrganization(t.app, { withAssets: false });
    for (const asset of ['logo', 'favicon']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${org.name}/${asset}`, headers: { 'accept-language': 'el' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Δεν βρέθηκε.' });
    }
    const detail = (await lookup(org.name)).json<OrganizationDetail>();
    expect(detail).toMatchObject({ logo_url: null, favicon_url: null, org_logo: null });
  });

  it('answers 404 {"detail"} when the stored file is missing', async () => {
    const org = await buildOrganization(t.app, { withAssets: true });
    await t.app.storage.delete(org.logo_key!);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/organizations/${org.name}/logo` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('rejects an unknown asset kind with a field error naming the value', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/organizations/healthbook/banner' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ asset: ['"banner" is not a valid choice.'] });
  });
});

describe('an organisation created with its own branding', () => {
  it('is answered as created, assets included', async () => {
    const org = await buildOrganization(t.app, {
      name: 'acme-clinic',
      org_name: 'ACME Clinic',
      org_short_name: 'ACME',
      primary_color: '#a1b2c3',
      withAssets: true,
    });

    const detail = (await lookup('ACME-Clinic')).json<OrganizationDetail>();
    expect(detail).toMatchObject({
      org: org.id,
      name: 'acme-clinic',
      org_name: 'ACME Clinic',
      org_short_name: 'ACME',
      primary_color: '#a1b2c3',
      org_logo: 'acme-clinic-logo.svg',
    });

    const logo = await t.app.inject({ method: 'GET', url: detail.logo_url! });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(logo.rawPayload.equals(org.assets!.logo)).toBe(true);

    const favicon = await t.app.inject({ method: 'GET', url: detail.favicon_url! });
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-type']).toBe('image/png');
    expect(favicon.rawPayload.equals(PNG_1X1)).toBe(true);

    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/organization_detail/' })).json<OrganizationDetail[]>();
    expect(list).toContainEqual(detail);
  });

  it('may have no colour; the answer says so instead of inventing one', async () => {
    const org = await buildOrganization(t.app, { primary_color: null });
    const detail = (await lookup(org.name)).json<OrganizationDetail>();
    expect(detail.primary_color).toBeNull();
    expect(detail.org_name).toBe(org.org_name);
  });
});
