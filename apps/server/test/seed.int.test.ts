import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ORGANIZATIONS, DEMO_PASSWORD, DEMO_USERS, seedDemo } from '../src/db/seed/demo';
import { verifyPassword } from '../src/lib/passwords';
import { buildTestApp, type TestApp } from './build-app';
import { buildOrganization } from './factories';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ seed: false });
});
afterAll(async () => {
  await t?.close();
});

const counts = async () => ({
  organizations: (await t.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  users: (await t.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
});

describe('seedDemo on an empty database', () => {
  it('answers that it seeded', async () => {
    expect(await counts()).toEqual({ organizations: 0, users: 0 });
    expect(await seedDemo(t.db, t.app.storage)).toBe(true);
  });

  it.each(DEMO_ORGANIZATIONS)('creates $name complete: names, colour, both assets readable', async (demo) => {
    const org = await t.db.selectFrom('organizations').selectAll().where('name', '=', demo.name).executeTakeFirstOrThrow();
    expect(org).toMatchObject({
      org_name: demo.org_name,
      org_short_name: demo.org_short_name,
      primary_color: demo.primary_color,
      logo_content_type: 'image/svg+xml',
      favicon_content_type: 'image/svg+xml',
    });
    expect(org.primary_color).toMatch(/^#[0-9a-f]{6}$/i);
    for (const [key, file] of [
      [org.logo_key, `${demo.name}-logo.svg`],
      [org.favicon_key, `${demo.name}-favicon.svg`],
    ] as const) {
      expect(key).toBeTruthy();
      const stored = await t.app.storage.get(key!);
      expect(stored).not.toBeNull();
      expect(stored!.toString('utf8')).toMatch(/<svg[\s>]/);
      expect(stored!.equals(await readFile(path.join(import.meta.dirname, '../src/db/seed/assets', file)))).toBe(true);
    }
  });

  it('creates every demo user in their organisation', async () => {
    const users = await t.db
      .selectFrom('users')
      .innerJoin('organizations', 'organizations.id', 'users.org_id')
      .select(['users.email', 'users.first_name', 'users.last_name', 'users.roles', 'users.is_superadmin', 'users.is_active', 'organizations.name as org'])
      .orderBy('users.id')
      .execute();
    expect(users).toHaveLength(DEMO_USERS.length);
    expect(users).toEqual(
      DEMO_USERS.map((u) => ({
        email: u.email,
        first_name: u.first_name,
        last_name: u.last_name,
        roles: [...u.roles],
        is_superadmin: u.is_superadmin,
        is_active: true,
        org: u.org,
      })),
    );
  });

  it('gives every demo user an argon2id hash of the demo password', async () => {
    const users = await t.db.selectFrom('users').select(['email', 'password_hash']).execute();
    for (const user of users) {
      expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(user.password_hash!, DEMO_PASSWORD)).toBe(true);
      expect(await verifyPassword(user.password_hash!, 'wrong-password')).toBe(false);
    }
  });

  it('serves the seeded organisations through the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/organization_detail/' });
    expect(res.json<Array<{ name: string }>>().map((o) => o.name).sort()).toEqual(DEMO_ORGANIZATIONS.map((o) => o.name).sort());
  });
});

describe('seedDemo a second time', () => {
  it('does nothing', async () => {
    const before = await counts();
    const hashes = await t.db.selectFrom('users').select(['id', 'password_hash']).orderBy('id').execute();
    expect(await seedDemo(t.db, t.app.storage)).toBe(false);
    expect(await counts()).toEqual(before);
    expect(await t.db.selectFrom('users').select(['id', 'password_hash']).orderBy('id').execute()).toEqual(hashes);
  });
});

describe('seedDemo on a database that already has an organisation', () => {
  it('adds nothing', async () => {
    const other = await buildTestApp();
    try {
      await buildOrganization(other.app, { name: 'existing-clinic' });
      expect(await seedDemo(other.db, other.app.storage)).toBe(false);
      const names = await other.db.selectFrom('organizations').select('name').execute();
      expect(names).toEqual([{ name: 'existing-clinic' }]);
      expect(await other.app.storage.get('organizations/healthbook-logo.svg')).toBeNull();
    } finally {
      await other.close();
    }
  });
});
