import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InsuranceCard } from '@healthbook/shared';
import { buildTestApp, type TestApp } from './build-app';
import { bearer, buildOrganization, buildUser, PNG_1X1, signIn, type BuiltUser } from './factories';
import { onePagePdf } from '../src/db/seed/demo-files';
import { LocalStorage } from '../src/plugins/storage';

/**
 * Insurance cards (/api/v1/insurance/…): CRUD with field errors that store nothing, front and
 * back photos (JPEG/PNG/WebP by their bytes, ≤ 5 MB, metadata removed), and the refusals across
 * patients and organisations and with the feature off — checking the table and the storage, so
 * that "refused" also means "nothing kept".
 */

let t: TestApp;
const people: Record<string, BuiltUser> = {};
const tokens: Record<string, string> = {};
const patients: Record<string, number> = {};
const FIXTURES = path.join(import.meta.dirname, 'fixtures', 'files');
/** The test app's file store (build-app.ts keeps files under DATA_DIR/files). */
const storage = () => new LocalStorage(path.join(t.dataDir, 'files'));

beforeAll(async () => {
  t = await buildTestApp({ seed: true });
  const nw = (await t.db.selectFrom('organizations').select('id').where('name', '=', 'northwind').executeTakeFirstOrThrow()) as { id: number };
  const other = await buildOrganization(t.app, { name: 'insurance-other' });
  people.alice = await buildUser(t.app, { org: nw, dob: '1980-06-15' });
  people.bob = await buildUser(t.app, { org: nw, dob: '1975-01-01' });
  people.stranger = await buildUser(t.app, { org: other, dob: '1990-01-01' });
  for (const [name, user] of Object.entries(people)) {
    tokens[name] = (await signIn(t.app, { email: user.email, password: user.password, org_id: user.org_id })).access;
    patients[name] = (await t.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow()).id;
  }
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (who: string, method: Method, url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { ...bearer(tokens[who]!), 'accept-language': 'en' }, ...(payload ? { payload } : {}) });

function multipart(data: Buffer, filename = 'card.jpg', contentType = 'image/jpeg', field = 'file') {
  const boundary = `----HealthBookBoundary${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}
const putPhoto = (who: string, id: number, side: 'front' | 'back', data: Buffer, opts: { filename?: string; contentType?: string; query?: string } = {}) => {
  const body = multipart(data, opts.filename, opts.contentType);
  return t.app.inject({ method: 'POST', url: `/api/v1/insurance/${id}/${side}/${opts.query ?? ''}`, payload: body.payload, headers: { ...bearer(tokens[who]!), 'content-type': body.contentType, 'accept-language': 'en' } });
};

const cardsOf = (who: string) => t.db.selectFrom('insurance_cards').selectAll().where('patient_id', '=', patients[who]!).execute();
const good = { insurer: 'Northwind Mutual', plan: 'Gold PPO', member_number: 'NWM-123456', group_number: 'G-77', holder_name: 'Alice Example', holder_relationship: 'self', valid_from: '2026-01-01', valid_to: '2026-12-31' };

async function create(who: string, body: object = good): Promise<InsuranceCard> {
  const res = await call(who, 'POST', '/api/v1/insurance/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<InsuranceCard>();
}

describe('insurance cards', () => {
  it('creates, lists, reads, updates and deletes a card', async () => {
    const card = await create('alice');
    expect(card).toMatchObject({ ...good, notes: null, front: null, back: null });
    expect((await call('alice', 'GET', '/api/v1/insurance/')).json<InsuranceCard[]>().map((c) => c.id)).toContain(card.id);
    expect((await call('alice', 'GET', `/api/v1/insurance/${card.id}/`)).json<InsuranceCard>()).toEqual(card);

    const patched = await call('alice', 'PATCH', `/api/v1/insurance/${card.id}/`, { plan: 'Silver', group_number: null, notes: 'Call before visits' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<InsuranceCard>()).toMatchObject({ insurer: 'Northwind Mutual', plan: 'Silver', group_number: null, notes: 'Call before visits' });

    expect((await call('alice', 'DELETE', `/api/v1/insurance/${card.id}/`)).statusCode).toBe(204);
    expect((await call('alice', 'GET', `/api/v1/insurance/${card.id}/`)).statusCode).toBe(404);
  });

  it('answers 400 naming the field, and stores nothing', async () => {
    const before = (await cardsOf('alice')).length;
    const cases: Array<[object, string]> = [
      [{ ...good, insurer: '  ' }, 'insurer'],
      [{ ...good, insurer: undefined }, 'insurer'],
      [{ ...good, member_number: '' }, 'member_number'],
      [{ ...good, member_number: 'x'.repeat(65) }, 'member_number'],
      [{ ...good, insurer: 'x'.repeat(121) }, 'insurer'],
      [{ ...good, valid_from: '2026-02-30' }, 'valid_from'],
      [{ ...good, valid_to: '31/12/2026' }, 'valid_to'],
      [{ ...good, valid_from: '2026-06-01', valid_to: '2026-05-31' }, 'valid_to'],
      [{ ...good, holder_relationship: 'cousin' }, 'holder_relationship'],
      [{ ...good, member_number: 'a\nb' }, 'member_number'],
    ];
    for (const [body, field] of cases) {
      const res = await call('alice', 'POST', '/api/v1/insurance/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json<Record<string, string[]>>()), JSON.stringify(body)).toContain(field);
    }
    expect((await cardsOf('alice')).length).toBe(before);

    // An update whose end date falls before the stored start: refused, unchanged.
    const card = await create('alice');
    const res = await call('alice', 'PATCH', `/api/v1/insurance/${card.id}/`, { valid_to: '2025-01-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toHaveProperty('valid_to');
    expect((await call('alice', 'GET', `/api/v1/insurance/${card.id}/`)).json<InsuranceCard>().valid_to).toBe('2026-12-31');
  });

  it('stores a front and a back photo, replaces one, sends it back, removes it', async () => {
    const card = await create('alice');
    const jpeg = await readFile(path.join(FIXTURES, 'photo-metadata.jpg'));
    const front = await putPhoto('alice', card.id, 'front', jpeg, { filename: 'front.jpg' });
    expect(front.statusCode, front.body).toBe(200);
    expect(front.json<InsuranceCard>().front).toEqual({ content_type: 'image/jpeg', url: `/api/v1/insurance/${card.id}/front/` });

    const file = await call('alice', 'GET', `/api/v1/insurance/${card.id}/front/`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    // The metadata is gone (camera, GPS city, XMP).
    for (const marker of ['HealthBookTestCam', 'SecretCity', 'http://ns.adobe.com/xap']) expect(file.rawPayload.includes(Buffer.from(marker, 'latin1')), marker).toBe(false);

    // A PNG declared as a JPEG: the bytes decide.
    const back = await putPhoto('alice', card.id, 'back', PNG_1X1, { filename: 'back.jpg', contentType: 'image/jpeg' });
    expect(back.json<InsuranceCard>().back?.content_type).toBe('image/png');

    // Replacing the front deletes the old file.
    const oldKey = (await t.db.selectFrom('insurance_cards').select('front_key').where('id', '=', card.id).executeTakeFirstOrThrow()).front_key!;
    expect(await storage().get(oldKey)).not.toBeNull();
    const webp = await readFile(path.join(FIXTURES, 'photo-metadata.webp'));
    expect((await putPhoto('alice', card.id, 'front', webp)).json<InsuranceCard>().front?.content_type).toBe('image/webp');
    expect(await storage().get(oldKey)).toBeNull();

    const removed = await call('alice', 'DELETE', `/api/v1/insurance/${card.id}/back/`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json<InsuranceCard>().back).toBeNull();
    expect((await call('alice', 'GET', `/api/v1/insurance/${card.id}/back/`)).statusCode).toBe(404);

    // Deleting the card deletes its photos.
    const frontKey = (await t.db.selectFrom('insurance_cards').select('front_key').where('id', '=', card.id).executeTakeFirstOrThrow()).front_key!;
    expect((await call('alice', 'DELETE', `/api/v1/insurance/${card.id}/`)).statusCode).toBe(204);
    expect(await storage().get(frontKey)).toBeNull();
  });

  it('refuses a wrong type (PDF, GIF, text named .jpg) and a photo over 5 MB, keeping nothing', async () => {
    const card = await create('alice');
    for (const [data, name] of [
      [onePagePdf({ title: 'Card', lines: ['front'] }), 'card.pdf'],
      [await readFile(path.join(FIXTURES, 'photo-metadata.gif')), 'card.gif'],
      [Buffer.from('not an image at all, only text'), 'card.jpg'],
    ] as const) {
      const res = await putPhoto('alice', card.id, 'front', Buffer.from(data), { filename: name });
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toEqual({ file: ['This kind of file cannot be used as a card photo: choose a JPEG, PNG or WebP image.'] });
    }
    const big = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    const tooBig = await putPhoto('alice', card.id, 'front', big);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ file: ['The file must be 5 MB or smaller.'] });
    const row = await t.db.selectFrom('insurance_cards').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow();
    expect([row.front_key, row.front_content_type]).toEqual([null, null]);
  });

  it('another patient of the organisation, and another organisation: 404 on every route, nothing changed', async () => {
    const card = await create('alice');
    await putPhoto('alice', card.id, 'front', PNG_1X1);
    for (const who of ['bob', 'stranger']) {
      const own = `/api/v1/insurance/${card.id}/`;
      const theirs = `?patient=${patients.alice}`;
      for (const [method, url, body] of [
        ['GET', own],
        ['PATCH', own, { insurer: 'Hacked' }],
        ['DELETE', own],
        ['GET', `${own}front/`],
        ['DELETE', `${own}front/`],
        ['GET', `/api/v1/insurance/${theirs}`],
        ['POST', `/api/v1/insurance/${theirs}`, good],
        ['GET', `${own}${theirs}`],
        ['PATCH', `${own}${theirs}`, { insurer: 'Hacked' }],
        ['DELETE', `${own}${theirs}`],
        ['GET', `${own}front/${theirs}`],
      ] as Array<[Method, string, object?]>) {
        const res = await call(who, method, url, body);
        expect(res.statusCode, `${who} ${method} ${url}`).toBe(404);
      }
      expect((await putPhoto(who, card.id, 'back', PNG_1X1)).statusCode).toBe(404);
      expect((await putPhoto(who, card.id, 'back', PNG_1X1, { query: `?patient=${patients.alice}` })).statusCode).toBe(404);
      expect((await call(who, 'GET', '/api/v1/insurance/')).json<InsuranceCard[]>().map((c) => c.id)).not.toContain(card.id);
    }
    const row = await t.db.selectFrom('insurance_cards').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ insurer: 'Northwind Mutual', back_key: null });
    expect(row.front_key).not.toBeNull();
  });

  it('with the feature turned off: 403', async () => {
    const org = await buildOrganization(t.app, { name: 'insurance-off' });
    const patient = await buildUser(t.app, { org, dob: '1990-01-01' });
    const admin = await buildUser(t.app, { org, roles: ['org_admin'] });
    const [pt, at] = await Promise.all([patient, admin].map(async (u) => (await signIn(t.app, { email: u.email, password: u.password, org_id: u.org_id })).access));
    const features = (await t.app.inject({ method: 'POST', url: '/api/v1/features/get-features/', headers: bearer(at!), payload: { organization_id: org.id } })).json<Array<{ id: number; key: string }>>();
    const insurance = features.find((f) => f.key === 'insurance')!;
    const set = await t.app.inject({ method: 'PUT', url: `/api/v1/features/${insurance.id}/`, headers: bearer(at!), payload: { organization_id: org.id, feature_status: 'disabled' } });
    expect(set.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/insurance/', headers: bearer(pt!) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/insurance/', headers: bearer(pt!), payload: good })).statusCode).toBe(403);
    const body = multipart(PNG_1X1);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/insurance/1/front/', headers: { ...bearer(pt!), 'content-type': body.contentType }, payload: body.payload })).statusCode).toBe(403);
  });

  it('in the demo: active in northwind with one seeded card, inactive (Coming Soon) in healthbook', async () => {
    const nw = await t.db.selectFrom('users').select('id').where('email', '=', 'patient@northwind.example').executeTakeFirstOrThrow();
    const patient = await t.db.selectFrom('patients').select('id').where('user_id', '=', nw.id).executeTakeFirstOrThrow();
    const cards = await t.db.selectFrom('insurance_cards').selectAll().where('patient_id', '=', patient.id).execute();
    expect(cards).toHaveLength(1);
    expect(cards[0]!.front_content_type).toBe('image/png');
    expect(await storage().get(cards[0]!.front_key!)).not.toBeNull();
    const statuses = await t.db
      .selectFrom('organization_features as of')
      .innerJoin('features as f', 'f.id', 'of.feature_id')
      .innerJoin('organizations as o', 'o.id', 'of.org_id')
      .select(['o.name', 'of.status'])
      .where('f.key', '=', 'insurance')
      .execute();
    expect(Object.fromEntries(statuses.map((s) => [s.name, s.status]))).toMatchObject({ northwind: 'active', healthbook: 'inactive' });
  });
});
