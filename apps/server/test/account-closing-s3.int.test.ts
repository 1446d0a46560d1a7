import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/context';
import { S3Storage } from '../src/plugins/storage';
import { buildTestApp, type TestApp } from './build-app';
import { checkErasure, rowsReferring, seedPatientData } from './account-closing-data';
import { bearer, buildOrganization, buildUser, signIn } from './factories';

/** The erasure of a closed account with the files in an S3-compatible store (s3rver, as several processes would use). */

interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: Array<{ name: string }> }) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const BUCKET = 'healthbook-files';
let dir: string;
let s3rver: S3rverServer;
let storage: S3Storage;
let app: TestApp;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hb-closing-s3-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(dir, 's3rver'), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  storage = new S3Storage(`s3://S3RVER:S3RVER@${BUCKET}?endpoint=http://127.0.0.1:${port}&region=us-east-1&path_style=true`);
  app = await buildTestApp({ storage });
});

afterAll(async () => {
  await app?.close();
  await storage?.close();
  await s3rver?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the erasure with files in S3', () => {
  it('leaves no row and no object of the patient; everyone else’s stay', async () => {
    await checkErasure(app, null);
  });

  it('measures the erasure of a patient with 1,000 records and 100 files in S3', async () => {
    const org = await buildOrganization(app.app);
    const provider = await buildUser(app.app, { org, roles: ['provider'] });
    const name = `S3p${Date.now().toString(36)}`;
    const user = await buildUser(app.app, { org, first_name: name, email: `${name.toLowerCase()}@example.test` });
    const { id: patientId } = await app.db.selectFrom('patients').select('id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const { keys } = await seedPatientData(app.db, storage, { orgId: org.id, patientId, userId: user.id, providerId: provider.id, records: 1000, files: 100, tag: name });
    const { access } = await signIn(app.app, user);
    expect((await app.app.inject({ method: 'POST', url: '/api/v1/me/closing/', headers: bearer(access), payload: { password: user.password } })).statusCode).toBe(202);
    await app.db.updateTable('account_closings').set({ erase_after: new Date(Date.now() - 60_000) }).where('user_id', '=', user.id).execute();
    await app.app.backgroundMail.drain();
    const started = performance.now();
    const [summary] = await app.app.accountClosing.eraseDue(systemContext(app.app.log));
    const ms = Math.round(performance.now() - started);
    expect(summary).toMatchObject({ filesFailed: 0, files: keys.length });
    let left = 0;
    for (const key of keys) if ((await storage.get(key)) !== null) left++;
    const rows = await rowsReferring(app.db, user.id, [patientId], [name.toLowerCase()]);
    expect(left).toBe(0);
    expect(rows).toEqual({});
    console.log(`[erasure, S3] 1,000 records + ${keys.length} files (100 documents): ${ms} ms; rows left: ${JSON.stringify(rows)}; objects left: ${left}`);
  });
});
