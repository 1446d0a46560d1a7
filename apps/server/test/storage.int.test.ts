import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseStorageUrl } from '../src/config';
import { createStorage, LocalStorage, S3Storage, type Storage } from '../src/plugins/storage';

/** s3rver (a local S3-compatible server, npm) ships no types: the little of it used here. */
interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor;

const BUCKET = 'healthbook-files';
const JWT_SECRET = 'x'.repeat(32);

let dir: string;
let s3rver: S3rverServer;
let endpoint: string;
let storageUrl: string;
const opened: S3Storage[] = [];

/** A new S3Storage, as another process would build it from the same STORAGE_URL. */
function s3Storage(url = storageUrl): S3Storage {
  const storage = new S3Storage(url);
  opened.push(storage);
  return storage;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hb-storage-'));
  s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(dir, 's3rver'), configureBuckets: [{ name: BUCKET }] });
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  // s3rver's built-in account (it checks the access key, not SigV4 signatures).
  storageUrl = `s3://S3RVER:S3RVER@${BUCKET}?endpoint=${endpoint}&region=us-east-1&path_style=true`;
});

afterAll(async () => {
  for (const storage of opened) await storage.close();
  await s3rver?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const INVALID_KEYS = ['../x', '/abs', 'a//b', '', 'a/../b', 'a/', './a', 'a/./b', 'a\\b', 'a b'];

describe.each([
  ['LocalStorage', () => new LocalStorage(path.join(dir, 'local', 'files'))],
  ['S3Storage', () => s3Storage()],
] as const)('%s', (_, make: () => Storage) => {
  let storage: Storage;
  beforeAll(() => {
    storage = make();
  });

  it('gives back exactly the bytes it was given', async () => {
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const large = randomBytes(300_000);
    await storage.put('attachments/every-byte.bin', everyByte);
    await storage.put('attachments/nested/deeper/large.bin', large);
    await storage.put('empty.txt', Buffer.alloc(0));
    expect(await storage.get('attachments/every-byte.bin')).toEqual(everyByte);
    // (Buffer#equals: a deep toEqual over 300 kB takes seconds.)
    expect((await storage.get('attachments/nested/deeper/large.bin'))?.equals(large)).toBe(true);
    expect(await storage.get('empty.txt')).toEqual(Buffer.alloc(0));
  });

  it('overwrites a key', async () => {
    await storage.put('avatars/1-abc.png', Buffer.from('first'));
    await storage.put('avatars/1-abc.png', Buffer.from('second, longer than the first'));
    expect((await storage.get('avatars/1-abc.png'))?.toString()).toBe('second, longer than the first');
  });

  it('answers null for a key that was never stored', async () => {
    expect(await storage.get('missing/nothing-here.pdf')).toBeNull();
    expect(await storage.get('missing.pdf')).toBeNull();
  });

  it('deletes, and deleting what is not there is fine', async () => {
    await storage.put('exports/e1.zip', Buffer.from('zip'));
    await storage.delete('exports/e1.zip');
    expect(await storage.get('exports/e1.zip')).toBeNull();
    await expect(storage.delete('exports/e1.zip')).resolves.toBeUndefined();
    await expect(storage.delete('never/was.bin')).resolves.toBeUndefined();
  });

  it.each(INVALID_KEYS)('refuses the key %j for every operation', async (key) => {
    await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow('Invalid storage key');
    await expect(storage.get(key)).rejects.toThrow('Invalid storage key');
    await expect(storage.delete(key)).rejects.toThrow('Invalid storage key');
  });
});

describe('S3Storage across processes', () => {
  it('two instances on the same STORAGE_URL see each other’s files, overwrites and deletions', async () => {
    const one = s3Storage();
    const two = s3Storage();
    await one.put('documents/shared.pdf', Buffer.from('%PDF-1.7 from one'));
    expect((await two.get('documents/shared.pdf'))?.toString()).toBe('%PDF-1.7 from one');
    await two.put('documents/shared.pdf', Buffer.from('%PDF-1.7 from two'));
    expect((await one.get('documents/shared.pdf'))?.toString()).toBe('%PDF-1.7 from two');
    await two.delete('documents/shared.pdf');
    expect(await one.get('documents/shared.pdf')).toBeNull();
  });

  it('stores each file under its key in the bucket, readable by any S3 client', async () => {
    await s3Storage().put('organizations/acme-logo.svg', Buffer.from('<svg/>'));
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'organizations/' }));
      expect(listed.Contents?.map((o) => o.Key)).toEqual(['organizations/acme-logo.svg']);
    } finally {
      client.destroy();
    }
  });

  it('fails loudly (never "no such file") when the bucket is wrong or the access key is refused', async () => {
    await expect(s3Storage(`s3://S3RVER:S3RVER@no-such-bucket?endpoint=${endpoint}&path_style=true`).get('a.txt')).rejects.toThrow();
    await expect(s3Storage(`s3://UNKNOWN:S3RVER@${BUCKET}?endpoint=${endpoint}&path_style=true`).get('a.txt')).rejects.toThrow();
  });
});

describe('createStorage', () => {
  it('keeps files under DATA_DIR/files without STORAGE_URL', async () => {
    const dataDir = path.join(dir, 'data-local');
    const storage = createStorage(loadConfig({ DATA_DIR: dataDir, JWT_SECRET }));
    expect(storage).toBeInstanceOf(LocalStorage);
    await storage.put('organizations/logo.svg', Buffer.from('<svg/>'));
    expect(await readFile(path.join(dataDir, 'files', 'organizations', 'logo.svg'), 'utf8')).toBe('<svg/>');
  });

  it('picks S3 when STORAGE_URL is set, and nothing goes to DATA_DIR/files', async () => {
    const dataDir = path.join(dir, 'data-s3');
    const config = loadConfig({ DATA_DIR: dataDir, JWT_SECRET, STORAGE_URL: storageUrl });
    expect(config.storageUrl).toBe(storageUrl);
    const storage = createStorage(config);
    expect(storage).toBeInstanceOf(S3Storage);
    opened.push(storage as S3Storage);
    await storage.put('organizations/logo.svg', Buffer.from('<svg id="s3"/>'));
    expect((await s3Storage().get('organizations/logo.svg'))?.toString()).toBe('<svg id="s3"/>');
    expect(existsSync(path.join(dataDir, 'files'))).toBe(false);
  });
});

describe('STORAGE_URL', () => {
  it('reads bucket, endpoint, region, path style and percent-encoded credentials', () => {
    expect(parseStorageUrl('s3://AKIA%2FEXAMPLE:se%2Bc%2Fre%40t%3A@my.bucket-1?endpoint=http://127.0.0.1:4569&region=eu-west-1&path_style=true')).toEqual({
      bucket: 'my.bucket-1',
      endpoint: 'http://127.0.0.1:4569',
      region: 'eu-west-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA/EXAMPLE', secretAccessKey: 'se+c/re@t:' },
    });
  });

  it('without credentials leaves them to the SDK’s default chain; region defaults to us-east-1', () => {
    expect(parseStorageUrl('s3://bucket')).toEqual({ bucket: 'bucket', endpoint: undefined, region: 'us-east-1', forcePathStyle: false, credentials: undefined });
  });

  it.each([
    ['http://bucket', 'starting with s3://'],
    ['bucket', 's3://'],
    ['s3://', 'bucket'],
    ['s3:///only/a/path', 'bucket'],
    ['s3://Bad_Bucket', 'not a valid name'],
    ['s3://bucket/prefix', 'path'],
    ['s3://AK@bucket', 'both an access key and a secret'],
    ['s3://bucket?endpoint=ftp://files.example', 'endpoint'],
    ['s3://bucket?endpoint=not-a-url', 'endpoint'],
    ['s3://bucket?path_style=maybe', 'path_style'],
    ['s3://bucket?regoin=us-east-1', 'unknown option "regoin"'],
    ['s3://bucket?region=eu-west-1&region=us-east-1', 'more than once'],
  ])('refuses %s at start-up, naming STORAGE_URL', (value, why) => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: path.join(dir, 'data-bad'), JWT_SECRET, STORAGE_URL: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/STORAGE_URL: /);
    expect((error as Error).message).toContain(why);
  });

  it('never repeats the secret in its error', () => {
    expect(() => loadConfig({ DATA_DIR: path.join(dir, 'data-bad'), JWT_SECRET, STORAGE_URL: 's3://AK:topsecret@bucket?oops=1' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('topsecret') }),
    );
  });
});
