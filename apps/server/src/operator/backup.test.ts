import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../db/migrations';
import { restoreBackup, type BackupManifest } from './backup';

/**
 * restore's checks on archives made by hand (no database needed: a files-only archive, as one
 * made with DATABASE_URL): what is refused, with which message, and that a refusal leaves
 * DATA_DIR and its surroundings as they were.
 */

async function archiveOf(entries: Array<{ name: string; data: Buffer | string }>): Promise<Buffer> {
  const pack = tar.pack();
  for (const { name, data } of entries) pack.entry({ name }, typeof data === 'string' ? Buffer.from(data) : data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  return gzipSync(Buffer.concat(chunks));
}

const digest = (name: string, data: string) => ({ path: name, size: Buffer.byteLength(data), sha256: createHash('sha256').update(data).digest('hex') });

function manifestFor(files: Record<string, string>, over: Partial<BackupManifest> = {}): string {
  const entries = Object.entries(files).map(([name, data]) => digest(name, data));
  const manifest: BackupManifest = {
    format: 'healthbook-backup',
    formatVersion: 1,
    product: { name: 'healthbook', version: '0.1.0' },
    createdAt: '2026-11-27T03:00:00.000Z',
    migrations: { level: MIGRATION_NAMES.at(-1)!, applied: [...MIGRATION_NAMES] },
    database: { kind: 'postgres', included: false },
    files: { storage: 'local', included: true, count: entries.length, bytes: entries.reduce((n, e) => n + e.size, 0), entries },
    jwtSecret: { included: false },
    ...over,
  };
  return JSON.stringify(manifest);
}

describe('restore --from', () => {
  let dir: string;
  let dataDir: string;
  let lines: { out: string[]; err: string[] };
  const io = { out: (line: string) => lines.out.push(line), err: (line: string) => lines.err.push(line) };
  const install = () => ({ dataDir, databaseUrl: 'postgres://postgres@127.0.0.1:1/not-used', storageUrl: undefined });
  const restoreFile = async (archive: Buffer, extra: string[] = []) => {
    const file = path.join(dir, 'backup.tar.gz');
    await writeFile(file, archive);
    return restoreBackup(['--from', file, ...extra], install(), io);
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hb-restore-'));
    dataDir = path.join(dir, 'data');
    lines = { out: [], err: [] };
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const untouched = async () => {
    expect(existsSync(dataDir)).toBe(false);
    expect(await readdir(dir)).toEqual(['backup.tar.gz']);
  };

  it('restores a files-only archive, and reminds that the database is restored with pg_restore', async () => {
    const files = { 'files/organizations/logo.svg': '<svg/>' };
    const code = await restoreFile(await archiveOf([{ name: 'files/organizations/logo.svg', data: '<svg/>' }, { name: 'manifest.json', data: manifestFor(files) }]));
    expect(lines.err.join('\n')).toContain('pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL"');
    expect(code).toBe(0);
    expect(await readFile(path.join(dataDir, 'files/organizations/logo.svg'), 'utf8')).toBe('<svg/>');
  });

  it('refuses a backup made by a newer release (a migration this one does not know)', async () => {
    const manifest = manifestFor({}, { migrations: { level: '9999_from_the_future', applied: [...MIGRATION_NAMES, '9999_from_the_future'] } });
    expect(await restoreFile(await archiveOf([{ name: 'manifest.json', data: manifest }]))).toBe(1);
    expect(lines.err).toEqual([
      'restore refused: the backup was made by a newer release (its schema has 9999_from_the_future, unknown to this one): install that release or a newer one, then restore. DATA_DIR was not touched.',
    ]);
    await untouched();
  });

  it('refuses an entry outside the backup’s layout (a path that climbs out), without writing it', async () => {
    expect(await restoreFile(await archiveOf([{ name: 'files/../../escape.txt', data: 'x' }]))).toBe(1);
    expect(lines.err[0]).toBe('restore refused: unexpected entry "files/../../escape.txt": this is not a HealthBook backup. DATA_DIR was not touched.');
    expect(existsSync(path.join(dir, '..', 'escape.txt'))).toBe(false);
    await untouched();
  });

  it('refuses an archive without its manifest, an entry the manifest does not list, and a changed one', async () => {
    expect(await restoreFile(await archiveOf([{ name: 'files/a.txt', data: 'a' }]))).toBe(1);
    expect(lines.err.pop()).toBe('restore refused: the archive has no manifest.json: it is not a complete HealthBook backup. DATA_DIR was not touched.');

    const extra = await archiveOf([{ name: 'files/a.txt', data: 'a' }, { name: 'files/b.txt', data: 'b' }, { name: 'manifest.json', data: manifestFor({ 'files/a.txt': 'a' }) }]);
    expect(await restoreFile(extra)).toBe(1);
    expect(lines.err.pop()).toBe('restore refused: the archive does not match its manifest: files/b.txt: not in the manifest. DATA_DIR was not touched.');

    const changed = await archiveOf([{ name: 'files/a.txt', data: 'A' }, { name: 'manifest.json', data: manifestFor({ 'files/a.txt': 'a' }) }]);
    expect(await restoreFile(changed)).toBe(1);
    expect(lines.err.pop()).toBe('restore refused: the archive does not match its manifest: files/a.txt: checksum mismatch (the archive is damaged). DATA_DIR was not touched.');

    const missing = await archiveOf([{ name: 'manifest.json', data: manifestFor({ 'files/a.txt': 'a' }) }]);
    expect(await restoreFile(missing)).toBe(1);
    expect(lines.err.pop()).toBe('restore refused: the archive does not match its manifest: files/a.txt: missing. DATA_DIR was not touched.');
    await untouched();
  });

  it('refuses a manifest of another format or version', async () => {
    expect(await restoreFile(await archiveOf([{ name: 'manifest.json', data: manifestFor({}, { formatVersion: 2 }) }]))).toBe(1);
    expect(lines.err.pop()).toBe('restore refused: the archive has format version 2; this release reads version 1. DATA_DIR was not touched.');
    expect(await restoreFile(await archiveOf([{ name: 'manifest.json', data: '{"format":"something-else"}' }]))).toBe(1);
    expect(lines.err.pop()).toBe("restore refused: the archive's manifest is not a HealthBook backup's. DATA_DIR was not touched.");
    await untouched();
  });

  it('says what is required', async () => {
    expect(await restoreBackup([], install(), io)).toBe(2);
    expect(lines.err[0]).toBe('--from: the archive to restore is required');
    expect(await restoreBackup(['--from', path.join(dir, 'nope.tar.gz')], install(), io)).toBe(1);
    expect(lines.err.pop()).toBe(`restore refused: ${path.join(dir, 'nope.tar.gz')} does not exist. DATA_DIR was not touched.`);
  });
});
