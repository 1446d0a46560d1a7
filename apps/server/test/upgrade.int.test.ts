// On PostgreSQL too (vitest.config.ts): an older release's schema and data, migrated on each database.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Db } from '../src/db/client';
import { appliedMigrations, migrateToLatest, migrateUpTo, MIGRATION_NAMES } from '../src/db/migrations';
import { orgScope } from '../src/db/scope';
import { hashPassword } from '../src/lib/passwords';
import { ExportsRepository } from '../src/modules/export/export.repository';
import { OrganizationsRepository } from '../src/modules/organizations/organizations.repository';
import { LocalStorage } from '../src/plugins/storage';
import { openFreshDatabase, TEST_JWT_SECRET, testDbKind } from './build-app';

/**
 * An upgrade, as an installation of the previous release goes through it: its database has the
 * migrations up to PREVIOUS_RELEASE and data written for that schema (plain SQL, as that
 * release's code wrote it); then this release starts, applies its newer migrations, and its
 * repositories and API read that data. On PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 *
 * When a release ships, move PREVIOUS_RELEASE to its last migration.
 */
const PREVIOUS_RELEASE = '0030_create_account_closings';
const PASSWORD = 'Upgrade-Path-2026!';
const FILE = Buffer.from('%PDF-1.4\n% written by the previous release\n%%EOF\n');

let db: Db;
let drop: () => Promise<void>;
let dataDir: string;
const ids: { org: number; user: number; patient: number; record: number; document: number; exp: number } = { org: 0, user: 0, patient: 0, record: 0, document: 0, exp: 0 };

beforeAll(async () => {
  const fresh = await openFreshDatabase();
  db = fresh.db;
  drop = fresh.drop;
  dataDir = await mkdtemp(path.join(tmpdir(), 'hb-upgrade-'));
});
afterAll(async () => {
  await db?.destroy().catch(() => undefined);
  await drop?.();
  await rm(dataDir, { recursive: true, force: true });
});

describe(`upgrade from the previous release (${PREVIOUS_RELEASE}) on ${testDbKind()}`, () => {
  it('builds the previous release’s schema: its migrations and no newer one', async () => {
    const cut = MIGRATION_NAMES.indexOf(PREVIOUS_RELEASE);
    expect(cut).toBeGreaterThan(0);
    // There is something to upgrade: this release has newer migrations.
    expect(cut).toBeLessThan(MIGRATION_NAMES.length - 1);
    await migrateUpTo(db, PREVIOUS_RELEASE);
    expect(await appliedMigrations(db)).toEqual(MIGRATION_NAMES.slice(0, cut + 1));
  });

  it('holds data written for that schema', async () => {
    const org = await sql<{ id: number }>`insert into organizations (name, org_name, org_short_name, primary_color) values ('upgrade-org', 'Upgrade Clinic', 'Upgrade', '#123456') returning id`.execute(db);
    ids.org = org.rows[0]!.id;
    const hash = await hashPassword(PASSWORD);
    const user = await sql<{ id: number }>`insert into users (org_id, email, password_hash, first_name, last_name, roles, dob, gender, sex, email_confirmed_at)
      values (${ids.org}, 'old.patient@upgrade.example', ${hash}, 'Olga', 'Older', ${sql.raw(`'{patient}'`)}, '1970-07-07', 'female', 'female', now()) returning id`.execute(db);
    ids.user = user.rows[0]!.id;
    // That schema makes an account's patient itself (a trigger, since 0008).
    const patient = await sql<{ id: number }>`select id from patients where user_id = ${ids.user}`.execute(db);
    expect(patient.rows).toHaveLength(1);
    ids.patient = patient.rows[0]!.id;
    const record = await sql<{ id: number }>`insert into health_records (org_id, patient_id, category, data, sort_date, search_text, created_by, updated_by)
      values (${ids.org}, ${ids.patient}, 'condition', ${JSON.stringify({ name: 'Asthma from before', start_date: '2019-04-01' })}::jsonb, '2019-04-01', 'asthma from before', ${ids.user}, ${ids.user}) returning id`.execute(db);
    ids.record = record.rows[0]!.id;
    const storage = new LocalStorage(path.join(dataDir, 'files'));
    await storage.put(`documents/${ids.org}/${ids.patient}/before.pdf`, FILE);
    const document = await sql<{ id: number }>`insert into documents (org_id, patient_id, record_id, origin, file_name, content_type, size, storage_key, created_by)
      values (${ids.org}, ${ids.patient}, ${ids.record}, 'attachment', 'before.pdf', 'application/pdf', ${FILE.length}, ${`documents/${ids.org}/${ids.patient}/before.pdf`}, ${ids.user}) returning id`.execute(db);
    ids.document = document.rows[0]!.id;
    // An export made by the previous release: no status or progress yet (0031 adds them).
    const exp = await sql<{ id: number }>`insert into exports (org_id, user_id, patient_id, token_hash, storage_key, records, expires_at)
      values (${ids.org}, ${ids.user}, ${ids.patient}, 'previous-release-token-hash', 'exports/previous.pdf', 1, now() + interval '1 day') returning id`.execute(db);
    ids.exp = exp.rows[0]!.id;
  });

  it('applies exactly the newer migrations, and the repositories read the older data', async () => {
    const applied = await migrateToLatest(db);
    expect(applied).toEqual(MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf(PREVIOUS_RELEASE) + 1));
    expect(await appliedMigrations(db)).toEqual([...MIGRATION_NAMES]);
    // Again: nothing left to apply.
    expect(await migrateToLatest(db)).toEqual([]);

    expect(await new OrganizationsRepository(db).findByName('upgrade-org')).toMatchObject({ id: ids.org, org_name: 'Upgrade Clinic', primary_color: '#123456' });
    // An export of the previous release reads as done, with its file (0031's defaults).
    expect(await new ExportsRepository(db, orgScope(ids.org)).findLive('previous-release-token-hash')).toMatchObject({
      id: ids.exp,
      status: 'done',
      progress: 1,
      error: null,
      storage_key: 'exports/previous.pdf',
      records: 1,
    });
  });

  it('serves the older data through the API: the account signs in, its record and its file are there', async () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir }, { jwtSecret: TEST_JWT_SECRET, webDist: undefined });
    const app = await buildApp(config, { db, storage: new LocalStorage(path.join(dataDir, 'files')), perIpLimitFloor: 10_000 });
    try {
      await app.ready();
      const login = await app.inject({ method: 'POST', url: '/api/v1/login/', payload: { email: 'old.patient@upgrade.example', password: PASSWORD, org: 'upgrade-org' } });
      expect(login.statusCode, login.body).toBe(200);
      const auth = { authorization: `Bearer ${login.json<{ access: string }>().access}` };
      const records = await app.inject({ method: 'GET', url: '/api/v1/hr/condition/', headers: auth });
      expect(records.statusCode, records.body).toBe(200);
      expect(records.json<{ count: number; results: Array<{ id: number; name: string }> }>()).toMatchObject({ count: 1, results: [{ id: ids.record, name: 'Asthma from before' }] });
      const file = await app.inject({ method: 'GET', url: `/api/v1/documents/${ids.document}/file/`, headers: auth });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(FILE)).toBe(true);
      const branding = await app.inject({ method: 'GET', url: '/api/v1/organization_detail_by_name/upgrade-org' });
      expect(branding.json<{ org_name: string }>().org_name).toBe('Upgrade Clinic');
    } finally {
      // The app's close hook closes the database: afterAll's destroy is then a no-op.
      await app.close();
    }
  });
});
