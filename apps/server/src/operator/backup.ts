import { createHash, randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream, existsSync, openAsBlob } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import * as tar from 'tar-stream';
import { version as serverVersion } from '../../package.json';
import { parseStorageUrl, type Config } from '../config';
import { DataDirInUseError, lockDataDir, type DataDirLock } from '../db/data-dir-lock';
import { appliedMigrations, MIGRATION_NAMES } from '../db/migrations';
import { dumpPglite } from '../db/pglite-dump';
import { EXIT_FAILED, EXIT_OK, usageError, type CommandDeps } from './command-io';

/**
 * `backup --to FILE` and `restore --from FILE`: one archive (tar.gz) of an installation's data.
 *
 * Inside: the embedded database as PGlite's own dump of its data directory (`database/pglite.tar`),
 * every file of the local file store (`files/<key>`), the generated JWT secret (`jwt-secret`, which
 * also seals the two-factor secrets) and, last, `manifest.json`: format and product version, the
 * migration level, when, the database kind, and each entry's size and SHA-256.
 *
 * The dump is consistent while the server runs: it is taken holding the database's only
 * connection (no transaction is open meanwhile; PGlite runs one statement at a time) just after a
 * CHECKPOINT. Files are written once under new keys (LocalStorage writes then renames), so the
 * files copied after the dump include every file the dump refers to; a file being written (its
 * `.tmp` name) is skipped.
 *
 * A PostgreSQL database (DATABASE_URL) and an S3 store (STORAGE_URL) are not in the archive:
 * they are backed up with their own tools (pg_dump / pg_restore, bucket versioning); the command
 * says what to run and exits non-zero, still archiving what is local.
 *
 * Nothing is left half-written: the archive is written beside FILE under a temporary name and
 * renamed when complete; a restore is built and checked in a directory beside DATA_DIR, which
 * takes DATA_DIR's place only at the end.
 */

export const BACKUP_FORMAT = 'healthbook-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** Exit code of a backup that wrote its archive but could not hold everything (PostgreSQL, S3): the rest is the operator's. */
export const EXIT_INCOMPLETE = 3;
/** Exit code of a restore refused because a server holds DATA_DIR (as the server's own refusal). */
export const EXIT_IN_USE = 75;

export const BACKUP_USAGE = `Usage: npm run cli -- backup --to FILE [--force]

Writes one archive (tar.gz) of this installation: the embedded database (DATA_DIR/pglite), the
files (DATA_DIR/files), the generated JWT secret and a manifest with each part's SHA-256.
It works while the server runs (the server takes a consistent copy for it) and when it does not.
FILE must not exist (--force replaces it). It is written under a temporary name and renamed when
complete: a failed backup leaves no FILE. Keep it as safe as the server: it holds everything.

With DATABASE_URL (PostgreSQL) the database is backed up with pg_dump, and with STORAGE_URL (S3)
the files with the bucket's versioning: the command says what to run, archives what is local,
and exits with code 3 (1 when nothing is local).
`;

export const RESTORE_USAGE = `Usage: npm run cli -- restore --from FILE [--force]

Restores an archive made by "backup" into DATA_DIR, which must be empty or missing and not in use
by a server (stop it first). With --force a non-empty DATA_DIR is replaced: its contents are moved
to DATA_DIR.replaced-<time> beside it (nothing is deleted). Every part is checked against the
manifest's SHA-256 and the database is opened once before DATA_DIR is touched; on any problem
DATA_DIR is left as it was. Then start the server: it applies the migrations of this release when
the backup is older. A backup made by a newer release is refused.
`;

interface EntryDigest {
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  product: { name: 'healthbook'; version: string };
  createdAt: string;
  /** The migrations applied to the database the archive holds (or, for PostgreSQL, the one backed up beside it). */
  migrations: { level: string | null; applied: string[] };
  database: { kind: 'pglite'; included: true; entry: EntryDigest } | { kind: 'postgres'; included: false };
  files: { storage: 'local'; included: true; count: number; bytes: number; entries: EntryDigest[] } | { storage: 's3'; included: false };
  jwtSecret: { included: true; entry: EntryDigest } | { included: false };
}

const MANIFEST = 'manifest.json';
const DB_ENTRY = 'database/pglite.tar';
const SECRET_ENTRY = 'jwt-secret';
/** A file LocalStorage is writing (`<key>.<uuid>.tmp`), not yet a file of the store. */
const IN_PROGRESS = /\.[0-9a-f-]{36}\.tmp$/i;
/** What a file's key may look like (as the stores check keys), under `files/`. */
const FILE_ENTRY = /^files\/[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/i;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function postgresAdvice(deps: Pick<CommandDeps, 'err'>, what: 'backup' | 'restore') {
  deps.err('The database is PostgreSQL (DATABASE_URL): it is not in this archive. Back it up with PostgreSQL\'s own tools,');
  deps.err('with the same DATABASE_URL as the server (while it runs; the dump is consistent):');
  deps.err('');
  deps.err('  pg_dump --format=custom --file=healthbook-$(date +%Y%m%d-%H%M).dump "$DATABASE_URL"');
  deps.err('');
  deps.err('and restore such a dump into an empty database (then start the server: it applies newer migrations):');
  deps.err('');
  deps.err('  pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" healthbook-YYYYMMDD-HHMM.dump');
  deps.err('');
  if (what === 'restore') deps.err('Run pg_restore now, before starting the server, if you have not yet.');
}

function s3Advice(deps: Pick<CommandDeps, 'err'>, storageUrl: string) {
  let bucket = '<bucket>';
  try {
    bucket = parseStorageUrl(storageUrl).bucket;
  } catch {
    // The server refuses such a URL anyway; the advice keeps its placeholder.
  }
  deps.err(`The files are in the S3 bucket "${bucket}" (STORAGE_URL): they are not in this archive. Keep them with the`);
  deps.err('store\'s versioning (deleted or overwritten objects stay recoverable), and copy the bucket elsewhere if you want a second copy:');
  deps.err('');
  deps.err(`  mc version enable ALIAS/${bucket}                    # MinIO (mc alias set ALIAS https://host KEY SECRET first)`);
  deps.err(`  aws s3api put-bucket-versioning --bucket ${bucket} --versioning-configuration Status=Enabled   # AWS S3`);
  deps.err(`  mc mirror ALIAS/${bucket} ./healthbook-files         # or: aws s3 sync s3://${bucket} ./healthbook-files`);
  deps.err('');
}

/**
 * Writes `data` as the next entry, hashing it on the way; waits while the archive's reader is
 * behind. `broken` rejects when writing the archive failed (a full disk): the entry's writer
 * then waits no longer for room that will never come.
 */
async function addEntry(
  pack: tar.Pack,
  header: { name: string; size: number; mode?: number; mtime?: Date },
  data: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  broken: Promise<never>,
): Promise<EntryDigest> {
  const hash = createHash('sha256');
  let size = 0;
  let settle!: (err?: Error | null) => void;
  const finished = new Promise<void>((resolve, reject) => (settle = (err) => (err ? reject(err) : resolve())));
  const entry = pack.entry({ type: 'file', mode: 0o600, mtime: new Date(), ...header }, (err) => settle(err));
  // A failed archive destroys its entries: the error is this entry's, never an uncaught one (in the server).
  entry.on('error', (err: Error) => settle(err));
  for await (const chunk of data) {
    hash.update(chunk);
    size += chunk.byteLength;
    if (!entry.write(chunk)) await Promise.race([new Promise<void>((resolve) => entry.once('drain', () => resolve())), broken]);
  }
  entry.end(undefined as never);
  await Promise.race([finished, broken]);
  if (size !== header.size) throw new Error(`${header.name} changed size while it was archived`);
  return { path: header.name, size, sha256: hash.digest('hex') };
}

/** The files under `root` (relative paths, `/`-separated), sorted; files being written are left out. */
async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, prefix: string) => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for (const name of names.sort()) {
      const full = path.join(dir, name);
      const info = await lstat(full);
      const rel = prefix ? `${prefix}/${name}` : name;
      if (info.isDirectory()) await walk(full, rel);
      else if (info.isFile() && !IN_PROGRESS.test(name)) found.push(rel);
    }
  };
  await walk(root, '');
  return found;
}

export async function runBackupCommand(args: string[], deps: CommandDeps): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { to: { type: 'string' }, force: { type: 'boolean' } }, allowPositionals: false }));
  } catch (err) {
    return usageError(deps, BACKUP_USAGE, [(err as Error).message]);
  }
  if (!values.to) return usageError(deps, BACKUP_USAGE, ['--to: the archive to write is required']);
  const install = deps.installation;
  if (!install) {
    deps.err('backup: this process does not know the installation\'s DATA_DIR');
    return EXIT_FAILED;
  }
  const target = path.resolve(values.to);
  const filesRoot = path.join(install.dataDir, 'files');
  if (!existsSync(path.dirname(target))) {
    deps.err(`backup: the folder ${path.dirname(target)} does not exist`);
    return EXIT_FAILED;
  }
  if (existsSync(target) && !values.force) {
    deps.err(`backup: ${target} exists; choose another name, or add --force to replace it`);
    return EXIT_FAILED;
  }
  if (!install.storageUrl && (target + path.sep).startsWith(filesRoot + path.sep)) {
    deps.err(`backup: write the archive outside ${filesRoot} (the files it backs up)`);
    return EXIT_FAILED;
  }
  const withDatabase = !install.databaseUrl;
  const withFiles = !install.storageUrl;
  if (!withDatabase) postgresAdvice(deps, 'backup');
  if (!withFiles) s3Advice(deps, install.storageUrl!);
  if (!withDatabase && !withFiles) {
    deps.err('Nothing of this installation is local (database and files are elsewhere): no archive was written.');
    return EXIT_FAILED;
  }

  const started = Date.now();
  const partial = `${target}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  const pack = tar.pack();
  pack.on('error', () => undefined); // reported by `written`
  const out = createWriteStream(partial, { mode: 0o600 });
  const written = pipeline(pack as unknown as AsyncIterable<Buffer>, createGzip({ level: 6 }), out);
  // A failure while writing (a full disk) stops the entries being added, at once.
  const broken = written.then(
    () => new Promise<never>(() => undefined),
    (err: unknown) => Promise.reject(err instanceof Error ? err : new Error(String(err))),
  );
  broken.catch(() => undefined);
  try {
    const applied = await appliedMigrations(deps.db);
    let database: BackupManifest['database'] = { kind: 'postgres', included: false };
    if (withDatabase) {
      const dump = await dumpPglite(deps.db);
      database = { kind: 'pglite', included: true, entry: await addEntry(pack, { name: DB_ENTRY, size: dump.size }, Readable.fromWeb(dump.stream() as never), broken) };
    }
    let files: BackupManifest['files'] = { storage: 's3', included: false };
    if (withFiles) {
      const entries: EntryDigest[] = [];
      for (const rel of await listFiles(filesRoot)) {
        let handle;
        try {
          handle = await open(path.join(filesRoot, rel), constants.O_RDONLY);
        } catch (err) {
          // Deleted between the listing and now: it is no longer part of the installation.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw err;
        }
        try {
          // An open file keeps its content even if a new version is renamed over its name meanwhile.
          const info = await handle.stat();
          entries.push(await addEntry(pack, { name: `files/${rel}`, size: info.size, mtime: info.mtime }, handle.createReadStream({ autoClose: false }), broken));
        } finally {
          await handle.close();
        }
      }
      files = { storage: 'local', included: true, count: entries.length, bytes: entries.reduce((sum, e) => sum + e.size, 0), entries };
    }
    let jwtSecret: BackupManifest['jwtSecret'] = { included: false };
    const secretFile = path.join(install.dataDir, 'jwt-secret');
    if (existsSync(secretFile)) {
      const secret = await readFile(secretFile);
      jwtSecret = { included: true, entry: await addEntry(pack, { name: SECRET_ENTRY, size: secret.length }, [secret], broken) };
    }
    if (!jwtSecret.included || (await readFile(secretFile, 'utf8')).trim() !== install.jwtSecret) {
      deps.err('JWT_SECRET comes from the environment and is not in the archive: keep it with the backup. The restored');
      deps.err('installation needs the same JWT_SECRET (it also seals the two-factor authenticator secrets).');
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      product: { name: 'healthbook', version: serverVersion },
      createdAt: new Date().toISOString(),
      migrations: { level: applied.at(-1) ?? null, applied },
      database,
      files,
      jwtSecret,
    };
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n');
    await addEntry(pack, { name: MANIFEST, size: manifestBytes.length, mode: 0o644 }, [manifestBytes], broken);
    pack.finalize();
    await written;
    const handle = await open(partial, constants.O_RDONLY);
    await handle.sync();
    await handle.close();
    await rename(partial, target);
    const size = (await stat(target)).size;
    const parts = [
      database.included ? `the database (schema ${manifest.migrations.level ?? 'empty'})` : undefined,
      files.included ? `${files.count} files (${mb(files.bytes)})` : undefined,
      jwtSecret.included ? 'the JWT secret' : undefined,
    ].filter(Boolean);
    deps.out(`Backup written to ${target}: ${mb(size)}, in ${seconds(started)}.`);
    deps.out(`It holds ${parts.join(', ')}. Restore with: npm run cli -- restore --from ${target}`);
    if (!withDatabase || !withFiles) deps.err(`Not in it: ${[withDatabase ? '' : 'the database (pg_dump, above)', withFiles ? '' : 'the files (S3, above)'].filter(Boolean).join(' and ')}.`);
    return withDatabase && withFiles ? EXIT_OK : EXIT_INCOMPLETE;
  } catch (err) {
    pack.destroy();
    await written.catch(() => undefined);
    await rm(partial, { force: true });
    deps.err(`backup failed, no archive was written: ${err instanceof Error ? err.message : String(err)}`);
    return EXIT_FAILED;
  }
}

/** A restore refused or failed; the message is for the operator. */
export class RestoreError extends Error {
  constructor(
    message: string,
    readonly exitCode = EXIT_FAILED,
  ) {
    super(message);
  }
}

async function isEmptyDir(dir: string): Promise<boolean> {
  return (await readdir(dir)).length === 0;
}

/** Reads the archive into `into`, checking each entry's name, size and SHA-256 against the manifest (the last entry). */
async function unpack(archive: string, into: string): Promise<BackupManifest> {
  const seen = new Map<string, EntryDigest>();
  let manifestText: string | undefined;
  const extract = tar.extract();
  const gunzip = createGunzip();
  const source = createReadStream(archive);
  source.on('error', (err) => extract.destroy(err));
  gunzip.on('error', (err) => extract.destroy(new RestoreError(`the archive is damaged or not gzip-compressed (${err.message})`)));
  source.pipe(gunzip).pipe(extract as unknown as NodeJS.WritableStream);
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      const allowed = name === MANIFEST || name === DB_ENTRY || name === SECRET_ENTRY || (FILE_ENTRY.test(name) && !name.includes('..'));
      if (type !== 'file' || !allowed) throw new RestoreError(`unexpected entry "${name}": this is not a HealthBook backup`);
      if (seen.has(name)) throw new RestoreError(`the entry "${name}" appears twice`);
      if (manifestText !== undefined) throw new RestoreError(`"${name}" follows the manifest, which must be the last entry`);
      const hash = createHash('sha256');
      let size = 0;
      if (name === MANIFEST) {
        const chunks: Buffer[] = [];
        for await (const chunk of entry as AsyncIterable<Buffer>) chunks.push(chunk);
        manifestText = Buffer.concat(chunks).toString('utf8');
        continue;
      }
      const file = path.join(into, name === DB_ENTRY ? 'database-dump.tar' : name);
      await mkdir(path.dirname(file), { recursive: true });
      await pipeline(
        entry as AsyncIterable<Buffer>,
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        createWriteStream(file, { mode: 0o600 }),
      );
      seen.set(name, { path: name, size, sha256: hash.digest('hex') });
    }
  } catch (err) {
    if (err instanceof RestoreError) throw err;
    // The system's refusal (a full disk, no permission): said as it is, not blamed on the archive.
    if ((err as NodeJS.ErrnoException).syscall) throw err;
    throw new RestoreError(`the archive is damaged or truncated (${err instanceof Error ? err.message : String(err)})`);
  }
  if (manifestText === undefined) throw new RestoreError('the archive has no manifest.json: it is not a complete HealthBook backup');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(manifestText) as BackupManifest;
  } catch {
    throw new RestoreError('the archive\'s manifest.json is not valid JSON');
  }
  if (manifest.format !== BACKUP_FORMAT) throw new RestoreError('the archive\'s manifest is not a HealthBook backup\'s');
  if (manifest.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new RestoreError(`the archive has format version ${String(manifest.formatVersion)}; this release reads version ${BACKUP_FORMAT_VERSION}`);
  }
  const expected: EntryDigest[] = [
    ...(manifest.database.included ? [manifest.database.entry] : []),
    ...(manifest.files.included ? manifest.files.entries : []),
    ...(manifest.jwtSecret.included ? [manifest.jwtSecret.entry] : []),
  ];
  const problems: string[] = [];
  for (const want of expected) {
    const got = seen.get(want.path);
    if (!got) problems.push(`${want.path}: missing`);
    else if (got.size !== want.size || got.sha256 !== want.sha256) problems.push(`${want.path}: checksum mismatch (the archive is damaged)`);
    seen.delete(want.path);
  }
  for (const extra of seen.keys()) problems.push(`${extra}: not in the manifest`);
  if (problems.length) {
    const shown = problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : '');
    throw new RestoreError(`the archive does not match its manifest: ${shown}`);
  }
  return manifest;
}

/**
 * Restores `archive` into the installation's DATA_DIR. Run by the CLI only, never by a server (a
 * server holding DATA_DIR is the reason to refuse). Answers the exit code.
 */
export async function restoreBackup(
  argv: string[],
  install: Pick<Config, 'dataDir' | 'databaseUrl' | 'storageUrl'>,
  io: Pick<CommandDeps, 'out' | 'err'>,
): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: { from: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: false }));
  } catch (err) {
    return usageError(io, RESTORE_USAGE, [(err as Error).message]);
  }
  if (values.help) {
    io.out(RESTORE_USAGE);
    return EXIT_OK;
  }
  if (!values.from) return usageError(io, RESTORE_USAGE, ['--from: the archive to restore is required']);
  try {
    await restore(path.resolve(values.from), install, Boolean(values.force), io);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      const who = err.holder ? `process ${err.holder.pid} on host ${err.holder.host} since ${err.holder.since}` : 'another process';
      io.err(`restore refused: DATA_DIR ${err.dataDir} is in use by ${who}. Stop the server first; DATA_DIR was not touched.`);
      return EXIT_IN_USE;
    }
    if (err instanceof RestoreError) {
      io.err(`restore refused: ${err.message}. DATA_DIR was not touched.`);
      return err.exitCode;
    }
    io.err(`restore failed: ${describeFailure(err)}. DATA_DIR was not touched.`);
    return EXIT_FAILED;
  }
}

/** PGlite's file system throws Emscripten's ErrnoError, not an Error: said by its number (51 is ENOSPC). */
function describeFailure(err: unknown): string {
  if (err instanceof Error) return err.message;
  const errno = (err as { errno?: unknown } | null)?.errno;
  if (typeof errno === 'number') return `the embedded database could not be written (${errno === 51 ? 'ENOSPC: no space left on device' : `file system error ${errno}`})`;
  return String(err);
}

async function restore(archive: string, install: Pick<Config, 'dataDir' | 'databaseUrl' | 'storageUrl'>, force: boolean, io: Pick<CommandDeps, 'out' | 'err'>) {
  const started = Date.now();
  if (!existsSync(archive)) throw new RestoreError(`${archive} does not exist`);
  const dataDir = install.dataDir;
  // DATA_DIR as it is: missing, empty, or with contents (then --force, and no server may hold it).
  let held: DataDirLock | undefined;
  const exists = existsSync(dataDir);
  if (exists && !(await stat(dataDir)).isDirectory()) throw new RestoreError(`DATA_DIR ${dataDir} is not a directory`);
  const empty = !exists || (await isEmptyDir(dataDir));
  if (!empty) {
    // A server holding DATA_DIR is the first reason to refuse (DataDirInUseError). Without a lock
    // file no server has run there; with --force the lock is taken (and kept) all the same.
    if (!install.databaseUrl && (force || existsSync(path.join(dataDir, 'lock')))) held = lockDataDir(dataDir);
    if (!force) {
      held?.release();
      throw new RestoreError(`DATA_DIR ${dataDir} is not empty; restore into an empty or new directory (set DATA_DIR), or add --force to replace it (its contents are moved aside, not deleted)`);
    }
  }
  const parent = path.dirname(dataDir);
  await mkdir(parent, { recursive: true });
  // DATA_DIR a mount point (a volume): it cannot be renamed, and a directory beside it is on
  // another file system. The working directory is then made inside it, its entries moved up at the end.
  const mountPoint = exists && (await stat(dataDir)).dev !== (await stat(parent)).dev;
  const suffix = `restoring-${process.pid}-${randomBytes(4).toString('hex')}`;
  const work = mountPoint ? path.join(dataDir, `.${suffix}`) : path.join(parent, `.${path.basename(dataDir)}.${suffix}`);
  await mkdir(work, { mode: 0o700 });
  try {
    const workLock = lockDataDir(work);
    try {
      io.out(`Checking ${archive} …`);
      const manifest = await unpack(archive, work);
      const unknown = manifest.migrations.applied.filter((name) => !MIGRATION_NAMES.includes(name));
      if (unknown.length) {
        throw new RestoreError(`the backup was made by a newer release (its schema has ${unknown.join(', ')}, unknown to this one): install that release or a newer one, then restore`);
      }
      if (manifest.database.kind === 'pglite' && install.databaseUrl) {
        throw new RestoreError('the backup holds an embedded database but DATABASE_URL is set; unset DATABASE_URL to restore it into DATA_DIR');
      }
      if (manifest.files.storage === 'local' && install.storageUrl) {
        io.err('STORAGE_URL is set: the files restored into DATA_DIR/files are not used by the server until they are copied into the bucket');
        io.err(`(for example: mc mirror ${path.join(dataDir, 'files')} ALIAS/<bucket>), or STORAGE_URL is unset.`);
      }
      if (manifest.database.included) {
        // PGlite loads its own dump (and recovers it as after a crash, were it needed): the database
        // opens here once, before DATA_DIR is touched, and must show the manifest's schema level.
        const dump = path.join(work, 'database-dump.tar');
        const client = await PGlite.create({ dataDir: path.join(work, 'pglite'), loadDataDir: await openAsBlob(dump) });
        try {
          const rows = await client.query<{ name: string }>('select name from kysely_migration order by name').catch(() => ({ rows: [] as Array<{ name: string }> }));
          const level = rows.rows.at(-1)?.name ?? null;
          if (level !== manifest.migrations.level) throw new RestoreError(`the restored database is at schema ${level ?? '(none)'}, the manifest says ${manifest.migrations.level ?? '(none)'}`);
        } finally {
          await client.close();
        }
        await rm(dump, { force: true });
      }
      if (manifest.jwtSecret.included) await chmod(path.join(work, SECRET_ENTRY), 0o600);
      await rm(path.join(work, 'lock'), { force: true });
      // From here DATA_DIR changes, by renames only.
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      if (mountPoint) {
        const previous = (await readdir(dataDir)).filter((name) => name !== path.basename(work));
        if (previous.length) {
          const aside = path.join(dataDir, `.replaced-${stamp}`);
          await mkdir(aside, { mode: 0o700 });
          for (const name of previous) await rename(path.join(dataDir, name), path.join(aside, name));
          io.out(`The previous contents of DATA_DIR were moved to ${aside} (delete it once the restored installation works).`);
        }
        for (const name of await readdir(work)) await rename(path.join(work, name), path.join(dataDir, name));
      } else {
        if (exists && !empty) {
          const aside = `${dataDir}.replaced-${stamp}`;
          await rename(dataDir, aside);
          io.out(`The previous contents of DATA_DIR were moved to ${aside} (delete it once the restored installation works).`);
        } else if (exists) {
          await rmdir(dataDir);
        }
        await rename(work, dataDir);
      }
      const files = manifest.files.included ? `${manifest.files.count} files` : 'no files (they are in S3)';
      io.out(
        `Restored into ${dataDir} in ${seconds(started)}: ${manifest.database.included ? `the database (schema ${manifest.migrations.level ?? 'empty'})` : 'no database'}, ${files}, ` +
          `${manifest.jwtSecret.included ? 'the JWT secret' : 'no JWT secret (set the same JWT_SECRET as before)'}; backup of ${manifest.createdAt}, release ${manifest.product.version}.`,
      );
      const pending = MIGRATION_NAMES.filter((name) => !manifest.migrations.applied.includes(name));
      if (manifest.database.included && pending.length) io.out(`The server applies ${pending.length} newer migration(s) when it starts (${pending.at(-1)}).`);
      if (!manifest.database.included) postgresAdvice(io, 'restore');
      io.out('Start the server on it as usual.');
    } finally {
      workLock.release();
    }
  } finally {
    held?.release();
    await rm(work, { recursive: true, force: true });
  }
}
