import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { S3Storage } from '../src/plugins/storage';
import { buildTestApp, type TestApp } from './build-app';
import { checkErasure } from './account-closing-data';

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
});
