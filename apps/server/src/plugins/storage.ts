import { constants } from 'node:fs';
import { access, mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type * as S3 from '@aws-sdk/client-s3';
import fp from 'fastify-plugin';
import { parseStorageUrl, type Config, type S3Location } from '../config';

/** One interface for every stored file (logos, avatars, attachments, exports). */
export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** Lets go of connections, if the store holds any. */
  close?(): Promise<void>;
  /** Throws when the store cannot be used now (the readiness check): the folder not writable, the bucket not reachable. */
  check?(): Promise<void>;
}

const KEY_PATTERN = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

/** Relative, no `..`, no empty or leading segment: the same keys whatever the store. */
function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

/** Files under a root folder (DATA_DIR/files). Keys are relative, checked, never able to escape the root. */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.resolve(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a reader never sees half a file.
    const tmp = `${file}.${randomUUID()}.tmp`;
    await writeFile(tmp, data);
    await rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.resolve(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}

/** A missing object (not a missing bucket: that is a misconfiguration, and must not read as "no file"). */
function isMissingObject(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || (e.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket');
}

/**
 * Files in one bucket of an S3-compatible store (STORAGE_URL), shared by every server process.
 * Keys are checked as LocalStorage checks them. The SDK is loaded on first use, so a server
 * that keeps its files on disk never loads it.
 */
export class S3Storage implements Storage {
  readonly location: S3Location;
  private client: Promise<{ sdk: typeof S3; client: S3.S3Client }> | undefined;

  constructor(location: S3Location | string) {
    this.location = typeof location === 'string' ? parseStorageUrl(location) : location;
  }

  private connect(): Promise<{ sdk: typeof S3; client: S3.S3Client }> {
    this.client ??= import('@aws-sdk/client-s3').then((sdk) => {
      const { endpoint, region, forcePathStyle, credentials } = this.location;
      const client = new sdk.S3Client({
        region,
        forcePathStyle,
        ...(endpoint ? { endpoint } : {}),
        ...(credentials ? { credentials } : {}),
        // Another vendor's server may not know the newer checksum headers: send and check them only where S3 requires them.
        ...(endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const, responseChecksumValidation: 'WHEN_REQUIRED' as const } : {}),
        // A store that stalls fails the request (and the SDK retries) instead of holding it forever.
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      });
      return { sdk, client };
    });
    return this.client;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const Key = checkKey(key);
    const { sdk, client } = await this.connect();
    // One PUT: readers see the old object or the new one, never half of one.
    await client.send(new sdk.PutObjectCommand({ Bucket: this.location.bucket, Key, Body: data, ContentLength: data.length }));
  }

  async get(key: string): Promise<Buffer | null> {
    const Key = checkKey(key);
    const { sdk, client } = await this.connect();
    try {
      const res = await client.send(new sdk.GetObjectCommand({ Bucket: this.location.bucket, Key }));
      if (!res.Body) return Buffer.alloc(0);
      const bytes = await res.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const Key = checkKey(key);
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.location.bucket, Key }));
    } catch (err) {
      // S3 answers 204 for a key that is not there; some compatible servers answer 404.
      if (!isMissingObject(err)) throw err;
    }
  }

  async check(): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.location.bucket }));
  }

  async close(): Promise<void> {
    const connecting = this.client;
    this.client = undefined;
    await connecting?.then(
      ({ client }) => client.destroy(),
      () => undefined, // never connected: nothing to let go of
    );
  }
}

/** The store the configuration names: STORAGE_URL's bucket, else the disk under DATA_DIR/files. */
export function createStorage(config: Pick<Config, 'dataDir' | 'storageUrl'>): Storage {
  return config.storageUrl ? new S3Storage(config.storageUrl) : new LocalStorage(path.join(config.dataDir, 'files'));
}

declare module 'fastify' {
  interface FastifyInstance {
    storage: Storage;
  }
}

export default fp<{ storage: Storage }>(
  async (app, opts) => {
    app.decorate('storage', opts.storage);
  },
  { name: 'storage' },
);
