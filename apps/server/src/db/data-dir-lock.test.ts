import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, loadConfigOwningDataDir, lockDataDir, type DataDirLock } from './data-dir-lock';

// Open-file-description locks conflict between two opens of the file even within one process,
// so the second owner can be played here; tests/process/ plays it with real processes.
let root: string;
const held: DataDirLock[] = [];
const hold = (dir: string) => {
  const lock = lockDataDir(dir);
  held.push(lock);
  return lock;
};

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'hb-lock-'));
});
afterEach(async () => {
  held.splice(0).forEach((lock) => lock.release());
  await rm(root, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('creates DATA_DIR and writes who holds it into DATA_DIR/lock', () => {
    const dir = path.join(root, 'nested', 'data');
    const lock = hold(dir);
    expect(lock.file).toBe(path.join(dir, 'lock'));
    const holder = JSON.parse(readFileSync(lock.file, 'utf8'));
    expect(holder).toEqual({ pid: process.pid, host: os.hostname(), since: expect.any(String) });
    expect(Date.parse(holder.since)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('refuses a second owner, naming the directory and the holder, and leaves the holder details intact', () => {
    const first = hold(root);
    const before = readFileSync(first.file, 'utf8');
    let refused: unknown;
    try {
      hold(root);
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toBe(
      `DATA_DIR ${root} is in use by process ${process.pid} on host ${os.hostname()} since ${first.holder.since}; ` +
        'one process owns an embedded database. Stop it, or use DATABASE_URL to run several processes.',
    );
    expect(readFileSync(first.file, 'utf8')).toBe(before);
  });

  it('says "another process" when the lock file does not name its holder', () => {
    hold(root);
    writeFileSync(path.join(root, 'lock'), 'garbage');
    expect(() => hold(root)).toThrow(`DATA_DIR ${root} is in use by another process; one process owns an embedded database.`);
  });

  it('can be taken again once released, and a stale file from a dead holder does not count', () => {
    writeFileSync(path.join(root, 'lock'), JSON.stringify({ pid: 999999, host: 'gone', since: '2020-01-01T00:00:00.000Z' }));
    const first = hold(root);
    first.release();
    first.release(); // twice is harmless
    expect(hold(root).holder.pid).toBe(process.pid);
  });
});

describe('loadConfigOwningDataDir', () => {
  it('locks an embedded DATA_DIR before the JWT secret is generated there', () => {
    const env = { DATA_DIR: root, NODE_ENV: 'test' };
    hold(root);
    expect(() => loadConfigOwningDataDir(env)).toThrow(DataDirInUseError);
    // The refused process wrote nothing: the owner's secret cannot be replaced.
    expect(existsSync(path.join(root, 'jwt-secret'))).toBe(false);

    held.splice(0).forEach((lock) => lock.release());
    const { config, lock } = loadConfigOwningDataDir(env);
    held.push(lock!);
    expect(lock?.file).toBe(path.join(root, 'lock'));
    expect(config.jwtSecret).toBe(readFileSync(path.join(root, 'jwt-secret'), 'utf8').trim());
  });

  it('with DATABASE_URL, waits for another process generating the JWT secret and takes the same one', async () => {
    // Another process holds the secret's lock, and writes its secret a moment later.
    const other = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const { tryLock } = require('fs-native-extensions');
         const fd = fs.openSync(process.argv[1] + '/jwt-secret.lock', 'a+');
         if (!tryLock(fd)) process.exit(3);
         console.log('locked');
         setTimeout(() => { fs.writeFileSync(process.argv[1] + '/jwt-secret', 'the-other-process-secret-0123456789abcdef\\n'); process.exit(0); }, 300);`,
        root,
      ],
      { cwd: import.meta.dirname, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await once(other.stdout, 'data');
    const { config, lock } = loadConfigOwningDataDir({ DATA_DIR: root, DATABASE_URL: 'postgres://localhost/x' });
    expect(lock).toBeUndefined();
    expect(config.jwtSecret).toBe('the-other-process-secret-0123456789abcdef');
  });

  it('locks nothing with DATABASE_URL: several processes may share DATA_DIR', () => {
    hold(root);
    const { config, lock } = loadConfigOwningDataDir({ DATA_DIR: root, DATABASE_URL: 'postgres://localhost/x', JWT_SECRET: 'x'.repeat(32) });
    expect(lock).toBeUndefined();
    expect(config.databaseUrl).toBe('postgres://localhost/x');
  });
});
