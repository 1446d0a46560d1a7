import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../config';

/**
 * One process owns an embedded data directory. Two processes on one PGlite directory each keep
 * their own view of the database and overwrite each other's files: acknowledged writes are lost
 * and the directory can stop opening at all. So the owner holds an exclusive lock on
 * `DATA_DIR/lock` for its whole life.
 *
 * The lock is an open-file-description lock (F_OFD_SETLK on Linux, via fs-native-extensions): the
 * operating system drops it when the process ends in any way, kill -9 included, so a crash never
 * leaves a stale lock behind. The file's content only says who holds it, for the message.
 */

// No type declarations ship with the package; these are the functions used.
const { tryLock, waitForLockSync } = createRequire(import.meta.url)('fs-native-extensions') as {
  tryLock(fd: number): boolean;
  waitForLockSync(fd: number): void;
};

/** Exit code of a process refused because another one owns DATA_DIR (EX_TEMPFAIL: try again later). */
export const DATA_DIR_IN_USE_EXIT_CODE = 75;

export interface LockHolder {
  pid: number;
  host: string;
  /** ISO 8601 time the holder took the lock. */
  since: string;
}

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | undefined,
  ) {
    const who = holder ? `process ${holder.pid} on host ${holder.host} since ${holder.since}` : 'another process';
    super(
      `DATA_DIR ${dataDir} is in use by ${who}; one process owns an embedded database. ` +
        'Stop it, or use DATABASE_URL to run several processes.',
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  readonly holder: LockHolder;
  /** Gives the lock up (closes the file). A process that exits needs not call it. */
  release(): void;
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.since === 'string') {
      return { pid: holder.pid, host: holder.host, since: holder.since };
    }
  } catch {
    // Being written by its holder this very moment, or not ours: the message says "another process".
  }
  return undefined;
}

/** Locks `dataDir` (created if missing) for this process, or throws DataDirInUseError naming the holder. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'lock');
  // Never truncated before the lock is ours: the holder's details must survive a refused attempt.
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
  let locked: boolean;
  try {
    locked = tryLock(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!locked) {
    closeSync(fd);
    throw new DataDirInUseError(dataDir, readHolder(file));
  }
  const holder: LockHolder = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() };
  ftruncateSync(fd, 0);
  writeSync(fd, JSON.stringify(holder) + '\n', 0);
  let released = false;
  return {
    file,
    holder,
    release() {
      if (released) return;
      released = true;
      closeSync(fd);
    },
  };
}

/** Runs `fn` holding an exclusive lock on `file` (waiting for it if another process holds it). */
function whileLocked<T>(file: string, fn: () => T): T {
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
  try {
    waitForLockSync(fd);
    return fn();
  } finally {
    closeSync(fd);
  }
}

/**
 * Loads the configuration. With an embedded database (no DATABASE_URL), DATA_DIR is locked first,
 * before anything in it is read or written: loadConfig itself generates DATA_DIR/jwt-secret when
 * JWT_SECRET is unset, and a refused process must not replace the secret its owner signs with.
 * With DATABASE_URL several processes may share DATA_DIR and it stays unlocked; only reading or
 * generating the secret is done one process at a time, so that processes started together agree
 * on one secret and none reads a half-written file.
 */
export function loadConfigOwningDataDir(env?: NodeJS.ProcessEnv): { config: Config; lock: DataDirLock | undefined } {
  // Parse (and validate) once without touching the JWT secret file, to learn where the data lives.
  const { databaseUrl, dataDir } = loadConfig(env, { jwtSecret: 'not read before DATA_DIR is locked' });
  if (databaseUrl) {
    mkdirSync(dataDir, { recursive: true });
    return { config: whileLocked(path.join(dataDir, 'jwt-secret.lock'), () => loadConfig(env)), lock: undefined };
  }
  const lock = lockDataDir(dataDir);
  try {
    return { config: loadConfig(env), lock };
  } catch (err) {
    lock.release();
    throw err;
  }
}
